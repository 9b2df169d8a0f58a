package io.github.sockjsstomp.threadusers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.samples.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connects a thread has under way, driven by {@link TestConnects}: each connect waits until the test lets it
 * finish or gives it up (or it is interrupted), so the order in which they finish is the test's, not the clock's.
 */
class ConnectsInFlightTest {

    private static final long LONGEST_MILLIS = 60_000;

    private final TestConnects connects = new TestConnects();
    private ConnectsInFlight inFlight;

    @AfterEach
    void close() {
        if (inFlight != null) {
            inFlight.close();
        }
    }

    @Test
    void aLimitOfOneConnectsOnTheJMeterThreadOneAtATime() throws InterruptedException {
        inFlight = new ConnectsInFlight(connects, 1, LONGEST_MILLIS);
        connects.finishAtOnce = true;

        inFlight.start(0, "session");

        assertThat(inFlight.hasRoom()).isFalse();
        assertThat(inFlight.hasFinished()).isTrue();
        assertThat(connects.attemptThreads)
                .containsEntry(0, Thread.currentThread().getName());
        SampleResult row = inFlight.awaitFirst("session");
        assertThat(row.getResponseMessage()).isEqualTo("user 0");
        assertThat(connects.applied).containsExactly(0);
        assertThat(inFlight.count()).isZero();
    }

    @Test
    void neverMoreThanTheLimitUnderWayAndEachRowIsItsUsersInTheOrderTheyFinish() throws InterruptedException {
        inFlight = new ConnectsInFlight(connects, 3, LONGEST_MILLIS);

        for (int index = 0; index < 3; index++) {
            assertThat(inFlight.hasRoom()).isTrue();
            inFlight.start(index, "session");
        }
        assertThat(inFlight.hasRoom()).isFalse();
        assertThat(inFlight.count()).isEqualTo(3);
        connects.awaitRunning(3);
        assertThat(connects.started).containsExactly(0, 1, 2);
        assertThat(connects.turnsAwaited.get()).isEqualTo(3);

        List<String> rows = new ArrayList<>();
        for (int index : new int[] {2, 0, 1}) {
            connects.finish(index);
            rows.add(inFlight.awaitFirst("session").getResponseMessage());
        }

        assertThat(rows).containsExactly("user 2", "user 0", "user 1");
        assertThat(connects.applied).containsExactly(2, 0, 1);
        assertThat(connects.applyThreads).containsOnly(Thread.currentThread().getName());
        assertThat(connects.attemptThreads.values())
                .doesNotContain(Thread.currentThread().getName());
        assertThat(connects.mostAtOnce.get()).isEqualTo(3);
        assertThat(inFlight.count()).isZero();
        assertThat(inFlight.hasRoom()).isTrue();
    }

    @Test
    void aFreedPlaceTakesTheNextConnectWhileTheOthersStayUnderWay() throws InterruptedException {
        inFlight = new ConnectsInFlight(connects, 2, LONGEST_MILLIS);
        inFlight.start(0, "session");
        inFlight.start(1, "session");
        // both under way before one finishes (on a loaded machine a lane may start late)
        connects.awaitRunning(2);
        connects.finish(1);
        assertThat(inFlight.awaitFirst("session").getResponseMessage()).isEqualTo("user 1");

        inFlight.start(2, "session");
        connects.finish(2);
        connects.finish(0);

        assertThat(List.of(
                        inFlight.awaitFirst("session").getResponseMessage(),
                        inFlight.awaitFirst("session").getResponseMessage()))
                .containsExactlyInAnyOrder("user 0", "user 2");
        assertThat(connects.mostAtOnce.get()).isEqualTo(2);
    }

    /**
     * Stop gives the connects up through their users (here {@link TestConnects#giveUp}, as a user's disconnect wakes
     * its wait for CONNECTED); it never interrupts a lane, whose write Tomcat would fail: a connect that completes
     * after Stop completes, and its lane closes its user again.
     */
    @Test
    void stopGivesTheConnectsUpWithoutInterruptingTheirLanesAndOneThatConnectsAnywayIsClosed()
            throws InterruptedException {
        inFlight = new ConnectsInFlight(connects, 2, LONGEST_MILLIS);
        inFlight.start(0, "session");
        inFlight.start(1, "session");
        connects.awaitRunning(2);

        inFlight.cancel();
        connects.giveUp(0);
        connects.finish(1);

        Map<String, String> codes = new ConcurrentHashMap<>();
        for (int k = 0; k < 2; k++) {
            SampleResult row = inFlight.awaitFirst("session");
            codes.put(row.getResponseMessage().contains("user 1") ? "user 1" : "user 0", row.getResponseCode());
        }
        assertThat(codes).containsEntry("user 0", Sample.INTERRUPTED).containsEntry("user 1", Sample.CODE_OK);
        assertThat(connects.disconnected).containsExactly(1);

        inFlight.start(2, "session");
        connects.finish(2);
        SampleResult after = inFlight.awaitFirst("session");
        assertThat(after.isSuccessful()).as(after.getResponseMessage()).isTrue();
        assertThat(connects.disconnected)
                .as("a connect started after Stop goes ahead")
                .containsExactly(1);
    }

    @Test
    void aConnectStartedAfterCloseIsARowThatSaysSo() throws InterruptedException {
        inFlight = new ConnectsInFlight(connects, 2, LONGEST_MILLIS);
        inFlight.start(0, "session");
        connects.finish(0);
        inFlight.awaitFirst("session");

        inFlight.close();
        inFlight.start(1, "session");

        SampleResult row = inFlight.awaitFirst("session");
        assertThat(row.getResponseCode()).isEqualTo(Sample.INTERRUPTED);
        assertThat(row.getResponseMessage()).contains("closed");
    }

    /**
     * A connect that needs no thread to wait on it (a plain WebSocket, no login steps) runs on no lane: it is started
     * on the JMeter thread and lands when whatever thread ends its wait completes it, here the test's own.
     */
    @Test
    void aConnectThatWaitsForNothingHasNoLaneAndLandsWhenItsWaitEnds() throws InterruptedException {
        connects.withoutWaiting = true;
        inFlight = new ConnectsInFlight(connects, 3, LONGEST_MILLIS);
        for (int index = 0; index < 3; index++) {
            inFlight.start(index, "session");
        }
        assertThat(connects.attemptThreads.values())
                .containsOnly(Thread.currentThread().getName());
        assertThat(inFlight.hasFinished()).isFalse();

        List<String> rows = new ArrayList<>();
        for (int index : new int[] {1, 2, 0}) {
            Thread ender = new Thread(() -> connects.complete(index), "io-" + index);
            ender.start();
            rows.add(inFlight.awaitFirst("session").getResponseMessage());
        }

        assertThat(rows).containsExactly("user 1", "user 2", "user 0");
        assertThat(connects.applied).containsExactly(1, 2, 0);
        assertThat(connects.applyThreads).containsOnly(Thread.currentThread().getName());
        assertThat(Thread.getAllStackTraces().keySet().stream().map(Thread::getName))
                .noneMatch(name -> name.startsWith("stomp-connect-lane"));
    }

    @Test
    void aConnectWithNoLaneThatConnectsAfterStopIsClosedAndCloseWaitsForTheRest() throws InterruptedException {
        connects.withoutWaiting = true;
        connects.slowDisconnects = true;
        inFlight = new ConnectsInFlight(connects, 2, LONGEST_MILLIS);
        inFlight.start(0, "session");
        inFlight.start(1, "session");

        inFlight.cancel();
        connects.complete(0);
        SampleResult row = inFlight.awaitFirst("session");
        assertThat(row.isSuccessful()).isTrue();
        assertThat(connects.disconnected).as("connected after Stop").containsExactly(0);

        Thread ender = new Thread(
                () -> {
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                    connects.complete(1);
                },
                "io-late");
        ender.start();
        inFlight.close();
        assertThat(connects.pending.get(1).isDone()).as("close waited for it").isTrue();
        assertThat(connects.disconnected).as("close waited for its close").containsExactly(0, 1);
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> new ConnectsInFlight(connects, 0, LONGEST_MILLIS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connectsInFlight")
                .hasMessageContaining("0");
    }

    /** Connects that finish when the test says, or when interrupted; what ran where, and how many at once. */
    private static final class TestConnects implements ConnectsInFlight.Connects {
        final Map<Integer, CountDownLatch> finishes = new ConcurrentHashMap<>();
        final Set<Integer> givenUp = ConcurrentHashMap.newKeySet();
        final List<Integer> disconnected = new CopyOnWriteArrayList<>();
        final Map<Integer, String> attemptThreads = new ConcurrentHashMap<>();
        final List<Integer> started = new ArrayList<>();
        final List<Integer> applied = new ArrayList<>();
        final List<String> applyThreads = new ArrayList<>();
        final AtomicInteger turnsAwaited = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        /** Element k opens once k + 1 connects ran at once. */
        final CountDownLatch[] runningAtLeast = {new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1)};

        volatile boolean finishAtOnce;
        /** Connects that wait for nothing: {@link #attemptAsync}, each ended by {@link #complete}. */
        volatile boolean withoutWaiting;

        volatile boolean slowDisconnects;

        final Map<Integer, CompletableFuture<UserConnects.Attempt>> pending = new ConcurrentHashMap<>();
        final Map<Integer, SampleResult> startedRows = new ConcurrentHashMap<>();
        final Map<Integer, Long> startNanos = new ConcurrentHashMap<>();

        void complete(int index) {
            SampleResult result = Sample.completed(startedRows.get(index), null, r -> Sample.ok(r, "user " + index));
            pending.get(index)
                    .complete(new UserConnects.Attempt(index, result, startNanos.get(index), System.nanoTime()));
        }

        @Override
        public boolean connectsWithoutWaiting(int index) {
            return withoutWaiting;
        }

        @Override
        public CompletableFuture<UserConnects.Attempt> attemptAsync(int index, String label) {
            attemptThreads.put(index, Thread.currentThread().getName());
            startNanos.put(index, System.nanoTime());
            startedRows.put(index, Sample.started(label));
            return pending.computeIfAbsent(index, i -> new CompletableFuture<>());
        }

        void finish(int index) {
            latch(index).countDown();
        }

        void giveUp(int index) {
            givenUp.add(index);
            latch(index).countDown();
        }

        void awaitRunning(int count) throws InterruptedException {
            assertThat(runningAtLeast[count - 1].await(30, TimeUnit.SECONDS)).isTrue();
        }

        private CountDownLatch latch(int index) {
            return finishes.computeIfAbsent(index, i -> new CountDownLatch(1));
        }

        @Override
        public void awaitTurn() {
            turnsAwaited.incrementAndGet();
        }

        @Override
        public void started(int index) {
            started.add(index);
        }

        @Override
        public UserConnects.Attempt attempt(int index, String label) {
            attemptThreads.put(index, Thread.currentThread().getName());
            int now = running.incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            for (int k = 0; k < Math.min(now, runningAtLeast.length); k++) {
                runningAtLeast[k].countDown();
            }
            long start = System.nanoTime();
            SampleResult result = Sample.timed(label, r -> {
                try {
                    if (!finishAtOnce) {
                        latch(index).await();
                    }
                    if (givenUp.contains(index)) {
                        throw new InterruptedException("given up");
                    }
                    Sample.ok(r, "user " + index);
                } finally {
                    running.decrementAndGet();
                }
            });
            return new UserConnects.Attempt(index, result, start, System.nanoTime());
        }

        @Override
        public void disconnect(int index) {
            if (slowDisconnects) {
                try {
                    // a close that takes a while, as a real one does: whoever waits for it must wait for it
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            disconnected.add(index);
        }

        @Override
        public void apply(UserConnects.Attempt attempt) {
            applied.add(attempt.index());
            applyThreads.add(Thread.currentThread().getName());
        }
    }
}
