package io.github.sockjsstomp.timing;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The thread that declares a tracker's messages LOST once their deadline passed, every {@value #SWEEP_MILLIS} ms
 * until closed. Only when the record is written depends on it, never the verdict: a reply after the deadline is
 * late whether or not the sweep came round to its message.
 */
final class ExpirySweeper implements AutoCloseable {

    private static final long SWEEP_MILLIS = 100; // how late a LOST record may be written (never its verdict)

    private final ScheduledExecutorService thread;

    private ExpirySweeper(ReplyTracker tracker) {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread sweeper = new Thread(r, "stomp-reply-expiry");
            sweeper.setDaemon(true);
            return sweeper;
        });
        thread.scheduleWithFixedDelay(
                () -> tracker.expire(System.nanoTime()), SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Starts sweeping {@code tracker}'s messages. */
    static ExpirySweeper start(ReplyTracker tracker) {
        return new ExpirySweeper(tracker);
    }

    /** Stops the sweep: the run is over. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
