package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A stepped run's rate changes on the scheduled sender's schedule, on a clock the test moves. */
class SendScheduleRateTest {

    private static final long START = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    /** Sends everything due at each millisecond from {@code from} to {@code to} (exclusive); returns how many. */
    private static long sendEachMillisecond(SendSchedule schedule, long from, long to) {
        long sent = 0;
        for (long now = from; now < to; now += MS) {
            int due = schedule.due(now);
            schedule.woke(now);
            for (int i = 0; i < due; i++) {
                schedule.sent();
            }
            sent += due;
        }
        return sent;
    }

    @Test
    void aStepUpSendsTheNewRateFromTheChangeOn() {
        SendSchedule schedule = new SendSchedule(100, 0); // 100/s
        schedule.start(START);
        assertThat(sendEachMillisecond(schedule, START, START + 1000 * MS)).isEqualTo(100);
        schedule.rate(200, START + 1000 * MS); // 200/s
        assertThat(sendEachMillisecond(schedule, START + 1000 * MS, START + 2000 * MS))
                .isEqualTo(200);
        schedule.rate(50, START + 2000 * MS); // 50/s
        assertThat(sendEachMillisecond(schedule, START + 2000 * MS, START + 3000 * MS))
                .isEqualTo(50);
    }

    @Test
    void changingTheRateAtEveryWakeUpKeepsThePhaseSoSlowRatesStillSend() {
        // 1 message/s; a ramp re-sets the same rate, a hair different, every 10 ms: the message still comes
        SendSchedule schedule = new SendSchedule(1, 0);
        schedule.start(START);
        long sent = 0;
        for (long now = START; now < START + 5000 * MS; now += 10 * MS) {
            schedule.rate(1 + (now / MS % 2) * 1e-3, now);
            int due = schedule.due(now);
            for (int i = 0; i < due; i++) {
                schedule.sent();
            }
            sent += due;
        }
        assertThat(sent).isEqualTo(5);
    }

    @Test
    void aRateOfZeroPausesAndTheNextMessageIsDueWhenItComesBack() {
        SendSchedule schedule = new SendSchedule(100, 0);
        schedule.rate(0, START);
        schedule.start(START);
        assertThat(schedule.paused()).isTrue();
        assertThat(schedule.due(START + 5000 * MS)).isZero();
        schedule.rate(100, START + 5000 * MS);
        assertThat(schedule.due(START + 5000 * MS)).isEqualTo(1);
        assertThat(sendEachMillisecond(schedule, START + 5000 * MS, START + 6000 * MS))
                .isEqualTo(100);
    }

    @Test
    void aSenderBehindKeepsItsLagAcrossAChange() {
        SendSchedule schedule = new SendSchedule(1000, 0); // 1 per ms
        schedule.start(START);
        // nothing sent for 100 ms: 101 messages are due, the first 100 ms behind
        schedule.rate(2000, START + 100 * MS);
        assertThat(schedule.due(START + 100 * MS)).isEqualTo(101);
        assertThat(schedule.lagNanos(schedule.next(), START + 100 * MS)).isEqualTo(100 * MS);
    }
}
