package io.github.sockjsstomp.timing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Latencies recorded on several threads at once (the I/O threads that read replies, a sender that fails its
 * message) with no write two of them share: each thread records into a recorder of its own and a reader merges
 * them. HdrHistogram's ConcurrentHistogram and Recorder make every writer enter one phaser and bump one counts
 * array, so a run's two I/O threads took each other's cache lines on every reply, twice (the run's histogram and
 * the live summary's). Reads are rare (a summary line every few seconds, a step's end, the run's end) and merge.
 *
 * <p>A reader sees what was recorded before its read began; a value recorded while it reads is in the next read.
 */
final class ThreadLatencies {

    private static final int DIGITS = 3;

    private final List<SingleWriterRecorder> recorders = new CopyOnWriteArrayList<>();
    private final ThreadLocal<SingleWriterRecorder> own = ThreadLocal.withInitial(this::newRecorder);
    /** Everything gathered from the recorders so far; auto-resizing, so no value is rejected. */
    private final Histogram all = new Histogram(DIGITS);
    /** What was gathered since {@link #takeRecent} last ran. */
    private Histogram recent = new Histogram(DIGITS);

    private SingleWriterRecorder newRecorder() {
        SingleWriterRecorder recorder = new SingleWriterRecorder(DIGITS);
        recorders.add(recorder);
        return recorder;
    }

    /** @param micros at least 0 */
    void record(long micros) {
        own.get().recordValue(micros);
    }

    /** Every latency recorded so far: a copy. */
    synchronized Histogram copy() {
        gather();
        return all.copy();
    }

    /** The latencies recorded since the last call (since this object was made, the first time). */
    synchronized Histogram takeRecent() {
        gather();
        Histogram taken = recent;
        recent = new Histogram(DIGITS);
        return taken;
    }

    private void gather() {
        for (SingleWriterRecorder recorder : recorders) {
            Histogram interval = recorder.getIntervalHistogram();
            all.add(interval);
            recent.add(interval);
        }
    }
}
