package io.github.sockjsstomp.timing;

import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One test's run, for the books: every way a test ends goes through here. Each sampler joins the run of its
 * test in setupTest and leaves that same run in teardownTest, which JMeter calls on one thread after all
 * threads stopped (normal end, Stop, Shutdown): the first to leave waits for the replies still in flight
 * while every session is still open, the last declares the rest LOST, writes the books and closes the timing
 * logs. A JVM that exits without a teardown (kill, System.exit) gets the same from a shutdown hook.
 *
 * <p>The GUI and remote engines run many tests in one JVM. A run whose teardowns did not all come (one threw
 * out of JMeter's loop, or the engine skipped it) is ended by the first sampler of the next test; a teardown
 * that comes after that leaves the old, ended run and cannot touch the new one.
 */
public final class TimingRun {

    private static final Logger log = LoggerFactory.getLogger(TimingRun.class);
    private static final Object LOCK = new Object();
    /** The run samplers join now; null between runs. */
    private static TimingRun current;
    private static boolean hookInstalled;

    /** Which test this run belongs to (the engine's test start time; 0 when unknown). */
    private final long testStartMillis;
    private int members;
    private boolean drained;
    private boolean finished;
    /** Stop was pressed (a sampler was interrupted): the run ends without waiting for replies in flight. */
    private volatile boolean stopped;
    private long longestDrainMillis;

    private TimingRun(long testStartMillis) {
        this.testStartMillis = testStartMillis;
    }

    /**
     * A sampler of the test that started at {@code testStartMillis} joins its run; the first one starts new
     * books and runs {@code atStart}. The run waits for replies at its end as long as the longest
     * {@code drainMillis} of its samplers, whichever leaves first. A run of another test still open is ended
     * first, so its books are written and its logs closed and the new test does not add to them.
     */
    public static TimingRun join(long drainMillis, long testStartMillis, Runnable atStart) {
        synchronized (LOCK) {
            TimingRun run = current;
            if (run != null && testStartMillis != 0 && run.testStartMillis != 0
                    && testStartMillis != run.testStartMillis) {
                log.warn("The test started at {} left its STOMP run open ({} samplers never tore down); ending it "
                        + "now, before the test started at {}", run.testStartMillis, run.members, testStartMillis);
                run.finish();
                run = null;
            }
            if (run == null) {
                run = new TimingRun(testStartMillis);
                current = run;
                ReplyTracker.shared().reset();
                installShutdownHook();
                atStart.run();
            }
            run.members++;
            run.longestDrainMillis = Math.max(run.longestDrainMillis, drainMillis);
            return run;
        }
    }

    /** Ends the open run, if any: for a JVM that exits without its teardowns. */
    public static void finishCurrent() {
        TimingRun run;
        synchronized (LOCK) {
            run = current;
        }
        if (run != null) {
            run.finish();
        }
    }

    private static void installShutdownHook() {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(TimingRun::finishCurrent, "stomp-timing-shutdown"));
            hookInstalled = true;
        }
    }

    /** JMeter's Stop or Shutdown interrupted a sample: whoever pressed it wants the end now, not a drain. */
    public void stop() {
        stopped = true;
    }

    /**
     * A sampler leaves this run (its teardownTest). The first to leave waits up to the longest drain of the run
     * for outstanding replies; the last ends the run. Leaving a run already ended does nothing.
     */
    public void leave() {
        boolean first;
        long drainMillis;
        synchronized (LOCK) {
            if (finished) {
                return;
            }
            first = !drained;
            drained = true;
            drainMillis = longestDrainMillis;
        }
        if (first && !stopped) {
            try {
                boolean quiet = ReplyTracker.shared().awaitQuiet(drainMillis, 250);
                if (!quiet) {
                    log.info("Replies still outstanding after {} ms; they will be LOST (test-ended)", drainMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        boolean last;
        synchronized (LOCK) {
            members = Math.max(0, members - 1);
            last = members == 0;
        }
        if (last) {
            finish();
        }
    }

    /** Whether the books of this run are written and its logs closed. */
    public boolean isFinished() {
        synchronized (LOCK) {
            return finished;
        }
    }

    /** Marks what is still outstanding LOST, logs the books and closes every timing log, once. */
    private void finish() {
        synchronized (LOCK) {
            if (finished) {
                return;
            }
            finished = true;
            if (current == this) {
                current = null;
            }
        }
        ReplyTracker tracker = ReplyTracker.shared();
        tracker.abandonAll("test-ended");
        tracker.endSummary();
        TimingLog.closeAll();
        Books books = tracker.books();
        if (books.sent() > 0 || books.untimed() > 0) {
            Histogram latency = tracker.latencySnapshot();
            log.info("STOMP timing books: {}; latency us: p50={} p90={} p99={} p99.9={} max={} ({} answers)", books,
                    Percentiles.higher(latency, 0.5), Percentiles.higher(latency, 0.9),
                    Percentiles.higher(latency, 0.99), Percentiles.higher(latency, 0.999), latency.getMaxValue(),
                    latency.getTotalCount());
        }
    }
}
