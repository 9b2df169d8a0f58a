package io.github.sockjsstomp.demo;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A server that saturates at a known rate, for the stepped capacity tests: one worker, a fixed time per task
 * ({@code 1 / perSecond}), an unbounded queue. Below {@code perSecond} tasks a second each runs a slot after it
 * came; above it the queue grows and so does the wait, without bound, as a server past its knee does. The slots
 * are kept on a clock (each a slot after the one before, or now if the worker was idle), so the rate is exact
 * however long a sleep overshoots.
 */
final class SlowWorker implements AutoCloseable {

    /** The demo server's {@code /app/slow} replies at most this many messages a second. */
    static final int PER_SECOND = 100;

    private final long slotNanos;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "demo-slow-worker");
        thread.setDaemon(true);
        return thread;
    });
    /** Only the worker thread touches it. */
    private long lastSlotNanos = System.nanoTime();

    SlowWorker(int perSecond) {
        this.slotNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
    }

    void submit(Runnable task) {
        worker.execute(() -> {
            long slot = Math.max(System.nanoTime(), lastSlotNanos) + slotNanos;
            lastSlotNanos = slot;
            for (long wait = slot - System.nanoTime(); wait > 0; wait = slot - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            task.run();
        });
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
