package io.github.sockjsstomp.timing;

import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a test, for the books: every way a test ends goes through here. JMeter calls each sampler's
 * teardownTest on one thread after all threads stopped (normal end, Stop, Shutdown); the first one waits for
 * the replies still in flight while every session is still open, the last one declares the rest LOST and
 * closes the timing logs. A JVM that exits without a teardown (kill, System.exit) gets the same from a
 * shutdown hook.
 */
public final class TimingRun {

    private static final Logger log = LoggerFactory.getLogger(TimingRun.class);
    private static final Object LOCK = new Object();
    private static int active;
    private static boolean drained;
    private static boolean finished;
    private static boolean hookInstalled;
    /** Stop was pressed (a sampler was interrupted): the run ends without waiting for replies in flight. */
    private static volatile boolean stopped;
    private static long longestDrainMillis;
    /** Which test the open run belongs to (the engine's test start time; 0 when unknown). */
    private static long runTestStart;

    private TimingRun() {
    }

    /**
     * A sampler joins the run (its setupTest). The first one of a run starts new books. The end of the run
     * waits for replies as long as the longest {@code drainMillis} of all samplers, whichever tears down first.
     *
     * @return whether this sampler started a new run
     */
    public static boolean enter(long drainMillis) {
        return enter(drainMillis, 0);
    }

    /**
     * As {@link #enter(long)}, for the test that started at {@code testStartMillis}. A sampler of a new test
     * finding the last test's run still open (a teardown that never came: another sampler's threw, or the
     * engine skipped it) ends that run first, so its books are written and its logs closed, and the new test
     * starts new books instead of adding to the old ones.
     */
    public static boolean enter(long drainMillis, long testStartMillis) {
        synchronized (LOCK) {
            if (active > 0 && !finished && testStartMillis != 0 && runTestStart != 0
                    && testStartMillis != runTestStart) {
                log.warn("The test started at {} left its STOMP run open ({} samplers never tore down); ending it "
                        + "now, before the test started at {}", runTestStart, active, testStartMillis);
                finish();
                active = 0;
            }
            boolean newRun = active == 0;
            if (newRun) {
                runTestStart = testStartMillis;
                drained = false;
                finished = false;
                stopped = false;
                longestDrainMillis = 0;
                ReplyTracker.shared().reset();
            }
            active++;
            longestDrainMillis = Math.max(longestDrainMillis, drainMillis);
            if (!hookInstalled) {
                Runtime.getRuntime().addShutdownHook(new Thread(TimingRun::finish, "stomp-timing-shutdown"));
                hookInstalled = true;
            }
            return newRun;
        }
    }

    /** JMeter's Stop or Shutdown interrupted a sample: whoever pressed it wants the end now, not a drain. */
    public static void stop() {
        stopped = true;
    }

    /**
     * A sampler leaves the run (its teardownTest). The first to leave waits up to the longest drain of the run
     * for outstanding replies; the last ends the run.
     */
    public static void exit() {
        boolean first;
        long drainMillis;
        synchronized (LOCK) {
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
        synchronized (LOCK) {
            active = Math.max(0, active - 1);
            if (active == 0) {
                finish();
            }
        }
    }

    /** Marks what is still outstanding LOST, logs the books and closes every timing log, once per run. */
    public static void finish() {
        synchronized (LOCK) {
            if (finished) {
                return;
            }
            finished = true;
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
