package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.user.SessionLoss;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The run's books per step: a window is a step's hold, and counts the messages SENT in it by their outcome
 * (answered, with its reply latency; lost; failed) whenever that outcome comes, and the session connects
 * STARTED in it, and the sessions lost to missed heart-beats in it (by when the user learnt it). A window stays open after its hold until its last message has settled (its reply timeout), so
 * its books are as exact as the run's. Fed on every thread that ends a message; cheap when no step runs (an
 * empty array to look at).
 */
public final class StepWindows {

    private static final Window[] NONE = new Window[0];

    private volatile Window[] open = NONE;

    /** Opens the window of a hold {@code [holdStartEpochMs, endEpochMs)}. */
    public synchronized Window open(long holdStartEpochMs, long endEpochMs) {
        Window window = new Window(holdStartEpochMs, endEpochMs);
        Window[] more = Arrays.copyOf(open, open.length + 1);
        more[open.length] = window;
        open = more;
        return window;
    }

    /** Stops counting into {@code window}: its figures stay as they are. */
    public synchronized void close(Window window) {
        open = Arrays.stream(open).filter(w -> w != window).toArray(Window[]::new);
    }

    void answered(long sentEpochMicros, long latencyMicros) {
        for (Window window : open) {
            if (window.holds(sentEpochMicros / 1000)) {
                window.answered.increment();
                window.latency.record(latencyMicros);
            }
        }
    }

    void lost(long sentEpochMicros) {
        for (Window window : open) {
            if (window.holds(sentEpochMicros / 1000)) {
                window.lost.increment();
            }
        }
    }

    void failed(long sentEpochMicros) {
        for (Window window : open) {
            if (window.holds(sentEpochMicros / 1000)) {
                window.failed.increment();
            }
        }
    }

    /** A connect that started {@code startNanos} (this JVM's nano clock) ended at {@code endNanos}. */
    void connect(long startNanos, long endNanos, boolean connected) {
        Window[] windows = open;
        if (windows.length == 0) {
            return;
        }
        long startEpochMs = System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        for (Window window : windows) {
            if (window.holds(startEpochMs)) {
                window.connects.increment();
                if (connected) {
                    window.connectMicros.recordValue(Math.max(0, (endNanos - startNanos) / 1000));
                } else {
                    window.connectFailed.increment();
                }
            }
        }
    }

    /** A session was lost at {@code epochMs} for {@code cause}: a missed heart-beat counts in its hold. */
    void sessionLost(SessionLoss cause, long epochMs) {
        if (cause != SessionLoss.MISSED_HEARTBEATS) {
            return;
        }
        for (Window window : open) {
            if (window.holds(epochMs)) {
                window.heartbeatMisses.increment();
            }
        }
    }

    /** One step's hold and its books. */
    public static final class Window {
        private final long fromEpochMs;
        private final long untilEpochMs;
        private final LongAdder answered = new LongAdder();
        private final LongAdder lost = new LongAdder();
        private final LongAdder failed = new LongAdder();
        private final LongAdder connects = new LongAdder();
        private final LongAdder connectFailed = new LongAdder();
        private final LongAdder heartbeatMisses = new LongAdder();
        /** Microseconds, recorded on the I/O threads that read the replies, each apart. */
        private final ThreadLatencies latency = new ThreadLatencies();

        private final ConcurrentHistogram connectMicros = new ConcurrentHistogram(3);

        Window(long fromEpochMs, long untilEpochMs) {
            this.fromEpochMs = fromEpochMs;
            this.untilEpochMs = untilEpochMs;
        }

        boolean holds(long epochMs) {
            return epochMs >= fromEpochMs && epochMs < untilEpochMs;
        }

        /** Messages sent in the hold that have an outcome: answered + lost + failed. */
        public long sent() {
            return answered() + lost() + failed();
        }

        public long answered() {
            return answered.sum();
        }

        public long lost() {
            return lost.sum();
        }

        public long failed() {
            return failed.sum();
        }

        public long connects() {
            return connects.sum();
        }

        public long connectFailed() {
            return connectFailed.sum();
        }

        /** Sessions lost to missed heart-beats in the hold. */
        public long heartbeatMisses() {
            return heartbeatMisses.sum();
        }

        /** The reply latency of the answered messages, in microseconds: a copy. */
        public Histogram latency() {
            return latency.copy();
        }

        /** The time of the connects that succeeded, in microseconds: a copy. */
        public Histogram connectMicros() {
            return connectMicros.copy();
        }

        @Override
        public String toString() {
            return "StepWindow[" + fromEpochMs + ".." + untilEpochMs + ", sent " + sent() + ", connects " + connects()
                    + "]";
        }
    }
}
