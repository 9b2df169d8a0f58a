package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IoLanesTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void namesTheBusiestThreadOfItsPrefixOverTheSpan() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch spun = new CountDownLatch(1);
        Thread idle = new Thread(() -> await(release), "lanes-test-io-1");
        Thread busy = new Thread(
                () -> {
                    // on CPU until it has used 50 ms of it, however long the machine takes to give it that
                    long start = THREADS.getCurrentThreadCpuTime();
                    while (THREADS.getCurrentThreadCpuTime() - start < 50_000_000L) {
                        Thread.onSpinWait();
                    }
                    spun.countDown();
                    await(release);
                },
                "lanes-test-io-2");
        Thread other = new Thread(() -> await(release), "not-a-lane");
        IoLanes lanes = new IoLanes("lanes-test-io-");
        IoLanes.Mark mark = lanes.mark();
        idle.start();
        other.start();
        busy.start();
        try {
            assertThat(spun.await(60, TimeUnit.SECONDS)).isTrue();
            IoLanes.Busiest busiest = lanes.busiestSince(mark);
            assertThat(busiest).isNotNull();
            assertThat(busiest.thread()).isEqualTo("lanes-test-io-2");
            assertThat(busiest.share()).isGreaterThan(0).isLessThanOrEqualTo(1);
        } finally {
            release.countDown();
            idle.join();
            busy.join();
            other.join();
        }
    }

    @Test
    void noThreadOfItsPrefixIsNoFigure() {
        IoLanes lanes = new IoLanes("no-such-thread-");
        assertThat(lanes.busiestSince(lanes.mark())).isNull();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
