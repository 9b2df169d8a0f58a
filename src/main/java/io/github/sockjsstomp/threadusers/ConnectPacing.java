package io.github.sockjsstomp.threadusers;

import java.util.concurrent.TimeUnit;

/**
 * Holds a thread's connects to {@code connectsPerSecond}: each waits, outside any sample's time, until one interval
 * after the last; a thread that fell behind does not catch up in a burst. Not thread-safe: one JMeter thread owns it.
 */
final class ConnectPacing {

    private final long intervalNanos;
    private long nextNanos = System.nanoTime();

    /** @param connectsPerSecond the thread's connects per second at most; 0: unpaced */
    ConnectPacing(double connectsPerSecond) {
        this.intervalNanos = connectsPerSecond > 0 ? (long) (TimeUnit.SECONDS.toNanos(1) / connectsPerSecond) : 0;
    }

    /** Waits until the next connect may start. JMeter's Stop ends the wait (the sampler interrupts its thread). */
    void awaitTurn() throws InterruptedException {
        if (intervalNanos == 0) {
            return;
        }
        long wait = nextNanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        nextNanos = Math.max(nextNanos, System.nanoTime() - intervalNanos) + intervalNanos;
    }
}
