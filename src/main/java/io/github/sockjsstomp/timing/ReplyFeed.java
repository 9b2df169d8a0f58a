package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Finished messages (answered, lost, failed) on their way to the replies sampler, which turns each into a
 * sample of its own for JMeter's listeners. Closed, as it is unless a replies sampler runs, it costs a
 * volatile read per record. Bounded: a replies thread that falls behind loses samples, never memory, and
 * the count of those it lost is kept; the timing log has every record either way.
 *
 * <p>Handed over in batches, not one by one: a taker that ran dry waits {@link #LINGER_MILLIS} unsignalled and
 * then takes all that came meanwhile, so under load the I/O threads that finish messages never wake it (waking a
 * parked thread per message cost a context switch and a system call on both sides, for a sample that carries its
 * own times and so gains nothing from being early). Only a taker that found nothing after lingering asks to be
 * woken by the next record, so an idle run wakes it about twice per {@code waitMillis} (the linger, then the wait).
 *
 * <p>The queue takes no lock: with an ArrayBlockingQueue the I/O threads offering and a taker moving a batch out
 * held one lock, and an I/O thread that found it held parked and was woken again (a system call each way, on the
 * reply path).
 */
public final class ReplyFeed {

    public static final int CAPACITY = 100_000;
    /** How long a taker that ran dry lets records gather before it looks again. */
    static final long LINGER_MILLIS = 20;
    /** The most records a taker moves out of the shared queue at once. */
    static final int BATCH = 512;

    private final int capacity;
    private final ConcurrentLinkedQueue<Finished> queue = new ConcurrentLinkedQueue<>();
    /** Records in {@link #queue}: its own size() walks every node. Counted up before an offer, down after a take. */
    private final AtomicInteger size = new AtomicInteger();

    private final LongAdder dropped = new LongAdder();
    /** A taker that found the feed empty after lingering and parked until the next record: woken once. */
    private final AtomicReference<Thread> sleeper = new AtomicReference<>();

    private volatile boolean open;
    /** Whether the messages keep their SEND and first reply for the takers (someone can read them); see open. */
    private volatile boolean keepContents;

    private int takers;

    ReplyFeed(int capacity) {
        this.capacity = capacity;
    }

    /** Finished messages queued for the replies sampler now. */
    public int queued() {
        return size.get();
    }

    /** A replies sampler starts taking: finished messages are kept from now on until its taker closes. */
    public Taker open() {
        return open(false);
    }

    /**
     * A replies sampler starts taking; with {@code contents}, messages sent from now on also keep their SEND and
     * first reply until they finish, for a sample whose request and response someone can read (JMeter's GUI, a
     * results file that saves them). Without, a message's frames are garbage as soon as they are written and read.
     */
    public synchronized Taker open(boolean contents) {
        if (takers++ == 0) {
            clear();
            dropped.reset();
            open = true;
        }
        keepContents |= contents;
        return new Taker();
    }

    /** Whether a message registered now keeps its SEND and first reply for a taker. */
    boolean keepsContents() {
        return keepContents;
    }

    /**
     * A finished message and when it finished (wall clock, ms): a LOST message's sample lasts until it was
     * declared lost, not until the replies thread got to it.
     *
     * @param destinationAsWritten the destination as the plan writes it, placeholders and all
     * @param sent its SEND, or null unless a taker asked for the contents when it was sent
     * @param reply its first reply, or null (not answered, or contents not kept)
     */
    public record Finished(
            TimingRecord record,
            long finishedMillis,
            String destinationAsWritten,
            OutgoingMessage sent,
            IncomingMessage reply) {

        /** A finished message without its contents, its destination as sent. */
        public Finished(TimingRecord record, long finishedMillis) {
            this(record, finishedMillis, record.destination(), null, null);
        }
    }

    /**
     * Records that never became samples, counted once: {@code dropped} found the feed full (the replies
     * thread fell behind), {@code left} were still in it (or in a taker's batch) when their taker stopped.
     */
    public record Unsampled(long dropped, long left) {}

    private synchronized Unsampled closed(int inBatch) {
        takers = Math.max(0, takers - 1);
        if (takers > 0) {
            return new Unsampled(0, inBatch);
        }
        open = false;
        keepContents = false;
        long left = clear();
        return new Unsampled(dropped.sumThenReset(), left + inBatch);
    }

    /** Empties the queue; returns how many records it held. */
    private int clear() {
        int cleared = 0;
        while (queue.poll() != null) {
            cleared++;
        }
        size.addAndGet(-cleared);
        return cleared;
    }

    /** Whether a taker is parked until the next record, for tests. */
    boolean hasSleeper() {
        return sleeper.get() != null;
    }

    void offer(TimingRecord record) {
        offer(record, record.destination(), null, null);
    }

    void offer(MessageTiming entry, TimingRecord record) {
        if (open) {
            offer(record, entry.destinationAsWritten, entry.sent, entry.keptReply);
        }
    }

    private void offer(TimingRecord record, String destinationAsWritten, OutgoingMessage sent, IncomingMessage reply) {
        if (!open) {
            return;
        }
        var finished = new Finished(record, System.currentTimeMillis(), destinationAsWritten, sent, reply);
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.offer(finished);
        if (sleeper.get() != null) {
            Thread parked = sleeper.getAndSet(null);
            if (parked != null) {
                LockSupport.unpark(parked);
            }
        }
    }

    /**
     * One replies sampler's end of the feed, used by its thread only: the batch it took out of the shared queue
     * and gives out one record per sample.
     */
    public final class Taker {

        private final ArrayDeque<Finished> batch = new ArrayDeque<>(BATCH);
        private boolean closed;
        /** Times this taker parked, for tests: an idle feed must cost its taker a few wake-ups per wait, not a spin. */
        private long parks;

        private Taker() {}

        /**
         * The next finished message, waiting up to {@code waitMillis}; null if none came (or the taker is closed).
         *
         * @throws InterruptedException JMeter's Stop: the wait ends at once
         */
        public Finished take(long waitMillis) throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException("waiting for finished messages");
            }
            Finished next = batch.poll();
            if (next != null || closed) {
                return next;
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
            boolean lingered = false;
            while (true) {
                if (takeBatch() > 0) {
                    return batch.poll();
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("waiting for finished messages");
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                if (!lingered) {
                    lingered = true;
                    parks++;
                    LockSupport.parkNanos(this, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS)));
                } else {
                    awaitNext(remaining);
                }
            }
        }

        /** Moves up to {@link #BATCH} records from the shared queue into this taker's batch; returns how many. */
        private int takeBatch() {
            int taken = 0;
            Finished next;
            while (taken < BATCH && (next = queue.poll()) != null) {
                batch.add(next);
                taken++;
            }
            if (taken > 0) {
                size.addAndGet(-taken);
            }
            return taken;
        }

        /** Parks until a record comes (its offer wakes this thread), {@code nanos} pass, or an interrupt. */
        private void awaitNext(long nanos) {
            Thread self = Thread.currentThread();
            sleeper.set(self);
            if (queue.isEmpty()) { // a record offered before we asked to be woken is not waited for
                parks++;
                LockSupport.parkNanos(this, nanos);
            }
            sleeper.compareAndSet(self, null);
        }

        /** Stops taking; after the feed's last taker, nothing more is kept. */
        public Unsampled close() {
            if (closed) {
                return new Unsampled(0, 0);
            }
            closed = true;
            int inBatch = batch.size();
            batch.clear();
            return closed(inBatch);
        }

        long parks() {
            return parks;
        }
    }
}
