package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scheduled sender's arithmetic, on a clock the test moves: no sleeping, no wall clock. */
class SendScheduleTest {

    private static final long START = 1_000_000_000L;

    private static long ms(double millis) {
        return (long) (millis * 1_000_000);
    }

    /** A thread that sends what is due at each wake-up, waking exactly when the schedule says. */
    private static List<Integer> ticksUntil(SendSchedule schedule, long endNanos) {
        List<Integer> ticks = new ArrayList<>();
        long now = START;
        schedule.start(now);
        while (true) {
            int due = schedule.due(now);
            if (due == 0) {
                now = schedule.wakeNanos();
                if (now > endNanos) {
                    return ticks;
                }
                continue;
            }
            schedule.woke(now);
            for (int i = 0; i < due; i++) {
                schedule.sent();
            }
            ticks.add(due);
        }
    }

    @ParameterizedTest(name = "{0}/s per thread, tick {1} ms: {3} ticks of {4} messages in 1 s")
    @CsvSource({
        // per second, tick ms, messages in the first second (0 .. 1000 ms inclusive), ticks, messages per tick
        "1000, 10, 1001, 101, 10", // 1,000/s: one wake-up per tick, ten messages each (the first alone)
        "100, 10, 101, 101, 1", // 100/s: one message per 10 ms, one wake-up each
        "10, 10, 11, 11, 1", // 10/s: a wake-up per message
        "2000, 1, 2001, 1001, 2", // 2,000/s, tick 1 ms: two per wake-up
    })
    void messagesDueShareAWakeUpNoMoreOftenThanATick(
            double perSecond, long tickMillis, int messages, int ticks, int perTick) {
        SendSchedule schedule = new SendSchedule(perSecond, tickMillis);
        List<Integer> sent = ticksUntil(schedule, START + ms(1000));
        assertThat(sent.stream().mapToInt(Integer::intValue).sum()).isEqualTo(messages);
        assertThat(sent).hasSize(ticks);
        assertThat(sent.subList(1, sent.size())).containsOnly(perTick);
    }

    @Test
    void everyMessageKeepsItsIntendedTimeWhateverHappenedBefore() {
        SendSchedule schedule = new SendSchedule(10, 10); // one per 100 ms
        schedule.start(START);
        assertThat(schedule.intendedNanos(0)).isEqualTo(START);
        assertThat(schedule.intendedNanos(7)).isEqualTo(START + ms(700));
        // The thread oversleeps by 250 ms: three messages are due, the first 250 ms behind schedule.
        long late = START + ms(250);
        assertThat(schedule.due(late)).isEqualTo(3);
        assertThat(schedule.lagNanos(schedule.next(), late)).isEqualTo(ms(250));
        schedule.woke(late);
        schedule.sent();
        schedule.sent();
        schedule.sent();
        // The next message is still due on its own time, not 100 ms after the late wake-up.
        assertThat(schedule.next()).isEqualTo(3);
        assertThat(schedule.wakeNanos()).isEqualTo(START + ms(300));
        assertThat(schedule.due(START + ms(299))).isZero();
    }

    @Test
    void aWakeUpComesNoSoonerThanATickAfterTheLast() {
        SendSchedule schedule = new SendSchedule(1000, 10); // one per ms
        schedule.start(START);
        schedule.woke(START);
        schedule.sent();
        assertThat(schedule.intendedNanos(schedule.next())).isEqualTo(START + ms(1));
        assertThat(schedule.wakeNanos()).isEqualTo(START + ms(10));
        assertThat(schedule.due(START + ms(10))).isEqualTo(10);
    }

    @Test
    void aThreadFarBehindCatchesUpInBoundedTicks() {
        SendSchedule schedule = new SendSchedule(10_000, 10); // 10,000/s
        schedule.start(START);
        long late = START + TimeUnit.SECONDS.toNanos(1);
        assertThat(schedule.due(late)).isEqualTo(SendSchedule.MAX_PER_TICK);
        for (int i = 0; i < SendSchedule.MAX_PER_TICK; i++) {
            schedule.sent();
        }
        assertThat(schedule.due(late)).isEqualTo(SendSchedule.MAX_PER_TICK);
        assertThat(schedule.wakeNanos()).as("still due: no sleep").isLessThan(late);
    }

    @Test
    void afterEveryUserWasDownTheBacklogIsSkippedNotBurst() {
        SendSchedule schedule = new SendSchedule(10, 10); // one per 100 ms
        schedule.start(START);
        schedule.sent(); // #0 at START
        long back = START + ms(1050); // #1 .. #10 fell due while every user was down
        assertThat(schedule.skipMissed(back)).isEqualTo(9);
        assertThat(schedule.next()).isEqualTo(10);
        assertThat(schedule.due(back)).isEqualTo(1);
        assertThat(schedule.skipMissed(back)).isZero();
    }

    @ParameterizedTest(name = "{0} users: user u sends every {0} x interval")
    @CsvSource({"1", "10", "1000"})
    void roundRobinGivesEveryUserASteadyInterval(int users) {
        SendSchedule schedule = new SendSchedule(1000, 10);
        schedule.start(START);
        for (long message = 0; message < 5L * users; message++) {
            long user = message % users;
            long turn = message / users;
            // the user's turn-th message is due at its first + turn x users x 1 ms
            assertThat(schedule.intendedNanos(message)).isEqualTo(schedule.intendedNanos(user) + turn * users * ms(1));
        }
    }

    @Test
    void startsOnce() {
        SendSchedule schedule = new SendSchedule(1, 10);
        schedule.start(START);
        schedule.start(START + ms(5000));
        assertThat(schedule.intendedNanos(1)).isEqualTo(START + ms(1000));
        assertThat(schedule.due(START - 1)).isZero();
    }

    @Test
    void refusesARateThatIsNotPositive() {
        assertThatThrownBy(() -> new SendSchedule(0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0.0");
        assertThatThrownBy(() -> new SendSchedule(Double.NaN, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SendSchedule(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
