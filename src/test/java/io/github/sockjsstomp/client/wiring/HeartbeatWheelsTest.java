package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.PeriodicTrigger;

class HeartbeatWheelsTest {

    private final HeartbeatWheels wheels = new HeartbeatWheels(2, 1, "test-wheel-");

    @Test
    void aOneShotTaskRunsOnceAndItsFutureIsDone() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = wheels.schedule(
                () -> {
                    runs.incrementAndGet();
                    ran.countDown();
                },
                Instant.now().plusMillis(5));
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        future.get(10, TimeUnit.SECONDS);
        assertThat(future.isDone()).isTrue();
        awaitNothingPending();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aOneShotTaskNeverRunsBeforeItsTime() throws Exception {
        Instant due = Instant.now().plusMillis(50);
        List<Instant> ranAt = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> future = wheels.schedule(() -> ranAt.add(Instant.now()), due);
        future.get(10, TimeUnit.SECONDS);
        assertThat(ranAt).singleElement().satisfies(at -> assertThat(at).isAfterOrEqualTo(due));
    }

    @Test
    void aFixedDelayTaskRunsAgainUntilCancelledThenNever() throws Exception {
        CountDownLatch threeRuns = new CountDownLatch(3);
        ScheduledFuture<?> future = wheels.scheduleWithFixedDelay(threeRuns::countDown, Duration.ofMillis(2));
        assertThat(threeRuns.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(future.cancel(true)).isTrue();
        assertThat(future.isCancelled()).isTrue();
        // a periodic task stays on its wheel for ever unless its cancel drops it when its slot comes round
        awaitNothingPending();
    }

    @Test
    void aPeriodicTaskThatThrowsRunsAgain() throws Exception {
        CountDownLatch twoRuns = new CountDownLatch(2);
        ScheduledFuture<?> future = wheels.scheduleAtFixedRate(
                () -> {
                    twoRuns.countDown();
                    throw new IllegalStateException("a heart-beat's write failed");
                },
                Duration.ofMillis(2));
        assertThat(twoRuns.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(future.isDone()).isFalse();
        future.cancel(false);
    }

    @Test
    void aOneShotTaskThatThrowsKeepsItsFailureInItsFuture() {
        ScheduledFuture<?> future = wheels.schedule(
                () -> {
                    throw new IllegalStateException("receipt lost");
                },
                Instant.now());
        assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("receipt lost");
    }

    @Test
    void aTriggeredTaskFollowsItsTrigger() throws Exception {
        CountDownLatch threeRuns = new CountDownLatch(3);
        ScheduledFuture<?> future = wheels.schedule(threeRuns::countDown, new PeriodicTrigger(Duration.ofMillis(2)));
        assertThat(threeRuns.await(10, TimeUnit.SECONDS)).isTrue();
        future.cancel(false);
        awaitNothingPending();
    }

    @Test
    void tasksOnManyWheelsAllRunOnceEach() throws Exception {
        int tasks = 2_000;
        CountDownLatch all = new CountDownLatch(tasks);
        AtomicInteger runs = new AtomicInteger();
        Instant soon = Instant.now().plusMillis(3);
        for (int i = 0; i < tasks; i++) {
            wheels.schedule(
                    () -> {
                        runs.incrementAndGet();
                        all.countDown();
                    },
                    soon.plusMillis(i % 700)); // beyond one turn of the wheel for some (512 ticks of 1 ms)
        }
        assertThat(all.await(20, TimeUnit.SECONDS)).isTrue();
        awaitNothingPending();
        assertThat(runs).hasValue(tasks);
    }

    @Test
    void refusesWhatCannotBeScheduled() {
        assertThatThrownBy(() -> wheels.scheduleWithFixedDelay(() -> {}, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> new HeartbeatWheels(0, 25, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threads");
    }

    private void awaitNothingPending() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (wheels.pending() > 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        assertThat(wheels.pending()).isZero();
    }
}
