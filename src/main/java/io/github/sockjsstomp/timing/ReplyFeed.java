package io.github.sockjsstomp.timing;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Finished messages (answered, lost, failed) on their way to the replies sampler, which turns each into a
 * sample of its own for JMeter's listeners. Closed, as it is unless a replies sampler runs, it costs a
 * volatile read per record. Bounded: a replies thread that falls behind loses samples, never memory, and
 * the count of those it lost is kept; the timing log has every record either way.
 */
public final class ReplyFeed {

    static final int CAPACITY = 100_000;

    private final BlockingQueue<TimingRecord> queue;
    private final LongAdder dropped = new LongAdder();
    private volatile boolean open;
    private int consumers;

    ReplyFeed(int capacity) {
        queue = new ArrayBlockingQueue<>(capacity);
    }

    /** A replies sampler starts taking. */
    public synchronized void open() {
        if (consumers++ == 0) {
            queue.clear();
            dropped.reset();
            open = true;
        }
    }

    /**
     * Records that never became samples, counted once: {@code dropped} found the feed full (the replies
     * thread fell behind), {@code left} were still in it when the last taker stopped.
     */
    public record Unsampled(long dropped, long left) {}

    /** A replies sampler stops taking; after the last, nothing more is kept. */
    public synchronized Unsampled close() {
        consumers = Math.max(0, consumers - 1);
        if (consumers > 0) {
            return new Unsampled(0, 0);
        }
        open = false;
        long left = queue.size();
        queue.clear();
        return new Unsampled(dropped.sumThenReset(), left);
    }

    void offer(TimingRecord record) {
        if (open && !queue.offer(record)) {
            dropped.increment();
        }
    }

    /** The next finished message, waiting up to {@code waitMillis}; null if none came. */
    public TimingRecord take(long waitMillis) throws InterruptedException {
        return queue.poll(waitMillis, TimeUnit.MILLISECONDS);
    }
}
