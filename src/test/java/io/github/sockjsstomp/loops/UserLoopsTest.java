package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The closed loop's bookkeeping on a clock the test moves, with outcomes the test settles. */
class UserLoopsTest {

    private static final long START = 5_000_000_000L;

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static List<Integer> dueAt(UserLoops loops, long nowNanos) {
        List<Integer> due = new ArrayList<>();
        for (int user = loops.takeDue(nowNanos); user >= 0; user = loops.takeDue(nowNanos)) {
            due.add(user);
        }
        return due;
    }

    /** The owner's way: take an outcome, and say it came at {@code cameNanos}. */
    private static int take(UserLoops loops, long cameNanos) {
        int user = loops.takeSettled();
        if (user >= 0) {
            loops.thinksSince(user, cameNanos);
        }
        return user;
    }

    @Test
    void aUserThinksFromWhenItsOutcomeCameNotFromWhenTheOwnerTookIt() {
        UserLoops loops = new UserLoops(3, 1000, Thread.currentThread());
        loops.start(START);
        assertThat(dueAt(loops, START + ms(700))).containsExactly(0, 1, 2);
        loops.sent(0);
        loops.sent(1);
        loops.sent(2);
        loops.settled(1);
        loops.settled(0);
        loops.settled(2);
        // taken a tick after they came: reply of user 1 at +710 ms, user 0's at +705 (read on another I/O thread,
        // queued after it), user 2's at +712
        assertThat(take(loops, START + ms(710))).isEqualTo(1);
        assertThat(take(loops, START + ms(705))).isEqualTo(0);
        assertThat(take(loops, START + ms(712))).isEqualTo(2);
        assertThat(loops.nextDueNanos(START + ms(720)))
                .as("a pause from the reply, not from the owner's look")
                .isEqualTo(START + ms(1710));
        assertThat(dueAt(loops, START + ms(1709))).isEmpty();
        assertThat(dueAt(loops, START + ms(1710)))
                .as("one taken out of order waits for the one queued before it, never goes ahead of it")
                .containsExactly(1, 0);
        assertThat(dueAt(loops, START + ms(1712))).containsExactly(2);
    }

    @Test
    void theFirstSendsSpreadOverOnePauseInUserOrder() {
        UserLoops loops = new UserLoops(4, 1000, Thread.currentThread());
        loops.start(START);
        assertThat(dueAt(loops, START)).containsExactly(0);
        assertThat(loops.nextDueNanos(START)).isEqualTo(START + ms(250));
        assertThat(dueAt(loops, START + ms(250) - 1)).isEmpty();
        assertThat(dueAt(loops, START + ms(600))).containsExactly(1, 2);
        assertThat(dueAt(loops, START + ms(750))).containsExactly(3);
        assertThat(loops.nextDueNanos(START + ms(750))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aUserSendsAgainOnlyAfterItsOutcomeAndItsPause() {
        UserLoops loops = new UserLoops(2, 100, Thread.currentThread());
        loops.start(START);
        assertThat(dueAt(loops, START + ms(50))).containsExactly(0, 1);
        loops.sent(0);
        loops.sent(1);
        assertThat(loops.inFlight()).isEqualTo(2);
        assertThat(loops.state(0)).isEqualTo(UserLoops.State.IN_FLIGHT);
        assertThat(dueAt(loops, START + ms(10_000))).as("in flight: never due").isEmpty();

        loops.settled(1);
        assertThat(take(loops, START + ms(70))).isEqualTo(1);
        assertThat(take(loops, START + ms(70))).isEqualTo(-1);
        assertThat(loops.inFlight())
                .as("at the end time, the loop waits for these")
                .isEqualTo(1);
        assertThat(loops.state(1)).isEqualTo(UserLoops.State.DUE);
        assertThat(dueAt(loops, START + ms(169))).isEmpty();
        assertThat(dueAt(loops, START + ms(170))).containsExactly(1);
        assertThat(loops.state(0)).isEqualTo(UserLoops.State.IN_FLIGHT);
    }

    @Test
    void withNoPauseAUserIsDueTheMomentItsOutcomeIsTaken() {
        UserLoops loops = new UserLoops(3, 0, Thread.currentThread());
        loops.start(START);
        assertThat(dueAt(loops, START)).containsExactly(0, 1, 2);
        List.of(0, 1, 2).forEach(loops::sent);
        loops.settled(2);
        loops.settled(0);
        assertThat(take(loops, START + 7)).isEqualTo(2);
        assertThat(take(loops, START + 7)).isEqualTo(0);
        assertThat(loops.nextDueNanos(START + 7)).isEqualTo(START + 7);
        assertThat(dueAt(loops, START + 7)).containsExactly(2, 0);
    }

    @Test
    void aWriteThatFailedAtOnceIsAnOutcomeTooFollowedByThePause() {
        UserLoops loops = new UserLoops(1, 500, Thread.currentThread());
        loops.start(START);
        assertThat(dueAt(loops, START)).containsExactly(0);
        loops.failedAtOnce(0, START + ms(1));
        assertThat(dueAt(loops, START + ms(500))).isEmpty();
        assertThat(dueAt(loops, START + ms(501))).containsExactly(0);
    }

    @Test
    void aUserDownSendsNothingUntilConnectedThenAheadOfThoseThinking() {
        UserLoops loops = new UserLoops(3, 100, Thread.currentThread());
        loops.start(START);
        assertThat(dueAt(loops, START + ms(100))).containsExactly(0, 1, 2);
        loops.down(0);
        loops.down(0);
        loops.sent(1);
        loops.sent(2);
        assertThat(loops.downCount()).isEqualTo(1);
        loops.settled(1);
        take(loops, START + ms(200));
        assertThat(dueAt(loops, START + ms(250))).isEmpty();
        loops.connected(0);
        loops.connected(0);
        assertThat(loops.downCount()).isZero();
        assertThat(dueAt(loops, START + ms(300))).containsExactly(0, 1);
        loops.connected(2);
        assertThat(loops.state(2)).as("connected() only wakes a user down").isEqualTo(UserLoops.State.IN_FLIGHT);
    }

    @Test
    void anOutcomeFromAnotherThreadWakesTheParkedOwner() throws Exception {
        UserLoops loops = new UserLoops(2, 0, Thread.currentThread());
        loops.start(START);
        dueAt(loops, START);
        loops.sent(0);
        loops.sent(1);
        CountDownLatch parking = new CountDownLatch(1);
        Thread io = new Thread(() -> {
            try {
                parking.await();
            } catch (InterruptedException e) {
                return;
            }
            loops.settled(1);
        });
        io.start();
        parking.countDown();
        // a deadline an hour away: only the outcome can end this wait before the test's own timeout
        long until = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
        while (!loops.hasSettled()) {
            loops.await(until);
        }
        io.join();
        assertThat(take(loops, START)).isEqualTo(1);
        assertThat(take(loops, START)).isEqualTo(-1);
    }

    @Test
    void anOutcomeQueuedBeforeTheWaitEndsItAtOnce() throws Exception {
        UserLoops loops = new UserLoops(1, 0, Thread.currentThread());
        loops.start(START);
        dueAt(loops, START);
        loops.sent(0);
        loops.settled(0);
        loops.await(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
        assertThat(take(loops, START)).isZero();
    }

    /**
     * With a pause an outcome wakes no one: the owner takes outcomes at its own pace, so it sleeps even with one
     * queued; here only an interrupt, sent once the owner is seen parked, ends its hour-long wait.
     */
    @Test
    void withAPauseAnOutcomeDoesNotWakeTheOwner() throws Exception {
        UserLoops loops = new UserLoops(1, 1000, Thread.currentThread());
        assertThat(loops.outcomesWake()).isFalse();
        loops.start(START);
        dueAt(loops, START);
        loops.sent(0);
        loops.settled(0);
        Thread owner = Thread.currentThread();
        Thread stop = new Thread(() -> {
            while (owner.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            owner.interrupt();
        });
        stop.start();
        assertThatThrownBy(() -> loops.await(System.nanoTime() + TimeUnit.HOURS.toNanos(1)))
                .isInstanceOf(InterruptedException.class);
        stop.join();
        assertThat(take(loops, START))
                .as("still queued, for the owner's next look")
                .isZero();
    }

    @Test
    void stopInterruptsTheWait() {
        UserLoops loops = new UserLoops(1, 0, Thread.currentThread());
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> loops.await(System.nanoTime() + TimeUnit.HOURS.toNanos(1)))
                .isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).as("cleared, as a sleep's").isFalse();
    }

    @Test
    void refusesWhatCannotBeALoop() {
        assertThatThrownBy(() -> new UserLoops(0, 0, Thread.currentThread()))
                .hasMessageContaining("users must be 1 or more, was 0");
        assertThatThrownBy(() -> new UserLoops(1, -1, Thread.currentThread()))
                .hasMessageContaining("pauseMillis must be 0 or more, was -1");
    }

    /**
     * A thread of users driven as the sampler drives them, against a server that answers each message after a
     * latency of its own (every third one never: LOST at the timeout): each user's messages go one at a time, each
     * sent no sooner than its previous outcome plus the pause, and every message has exactly one outcome.
     */
    @ParameterizedTest(name = "{0} users, pause {1} ms, latency {2} ms, timeout {3} ms")
    @CsvSource({"50, 1000, 20, 300", "7, 0, 3, 10", "1000, 100, 1, 50"})
    void eachUserKeepsItsOwnLoop(int users, long pauseMillis, long latencyMillis, long timeoutMillis) {
        UserLoops loops = new UserLoops(users, pauseMillis, Thread.currentThread());
        long end = START + ms(20_000);
        long now = START;
        loops.start(now);
        PriorityQueue<long[]> outcomes = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        long[] lastOutcome = new long[users];
        long[] sends = new long[users];
        long settledCount = 0;
        long sent = 0;
        while (now < end) {
            for (int user = take(loops, now); user >= 0; user = take(loops, now)) {
                lastOutcome[user] = now;
                settledCount++;
            }
            for (int user = loops.takeDue(now); user >= 0; user = loops.takeDue(now)) {
                assertThat(loops.state(user)).isEqualTo(UserLoops.State.DUE);
                if (sends[user] > 0) {
                    assertThat(now - lastOutcome[user]).isGreaterThanOrEqualTo(ms(pauseMillis));
                }
                loops.sent(user);
                long answerIn = ++sent % 3 == 0 ? ms(timeoutMillis) : ms(latencyMillis) + user % 5;
                outcomes.add(new long[] {now + answerIn, user});
                sends[user]++;
            }
            long next = Math.min(loops.nextDueNanos(now), outcomes.isEmpty() ? end : outcomes.peek()[0]);
            now = Math.max(now + 1, next);
            while (!outcomes.isEmpty() && outcomes.peek()[0] <= now) {
                loops.settled((int) outcomes.poll()[1]);
            }
        }
        assertThat(sent).isEqualTo(settledCount + outcomes.size() + countSettledNotTaken(loops, now));
        long roundTrip = ms(pauseMillis) + ms(latencyMillis);
        for (int user = 0; user < users; user++) {
            assertThat(sends[user]).as("user %d sent", user).isPositive();
        }
        if (pauseMillis > 0) {
            // 20 s of loops of at most pause + timeout each: every user went round many times, none ran ahead
            long most = ms(20_000) / roundTrip + 1;
            long fewest = ms(20_000) / (ms(pauseMillis) + ms(timeoutMillis)) - 2;
            for (int user = 0; user < users; user++) {
                assertThat(sends[user]).as("user %d sent", user).isBetween(fewest, most);
            }
        }
    }

    private static long countSettledNotTaken(UserLoops loops, long now) {
        long count = 0;
        while (take(loops, now) >= 0) {
            count++;
        }
        return count;
    }

    @Test
    void usersBeyondThoseLoopingGoIdleWhenDueAndLoopAgainWhenAStepLetsThem() {
        UserLoops loops = new UserLoops(4, 0, Thread.currentThread());
        loops.looping(0); // before the steps begin: nobody loops
        loops.start(START);
        assertThat(dueAt(loops, START)).isEmpty();
        assertThat(loops.state(3)).isEqualTo(UserLoops.State.IDLE);

        loops.looping(2);
        assertThat(dueAt(loops, START + 1)).containsExactly(0, 1);
        loops.sent(0);
        loops.sent(1);

        loops.looping(1); // the offer fell (the steps ended): user 1's message in flight ends, then it idles
        loops.settled(1);
        assertThat(take(loops, START + 2)).isEqualTo(1);
        assertThat(dueAt(loops, START + 2)).isEmpty();
        assertThat(loops.state(1)).isEqualTo(UserLoops.State.IDLE);
        assertThat(loops.inFlight()).isEqualTo(1);

        loops.looping(4);
        assertThat(dueAt(loops, START + 3)).containsExactlyInAnyOrder(1, 2, 3);
    }
}
