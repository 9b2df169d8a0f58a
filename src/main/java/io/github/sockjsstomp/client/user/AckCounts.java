package io.github.sockjsstomp.client.user;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A run's acknowledgements as the consumers sent them, over every virtual user that subscribes with {@code ack}
 * {@code client} or {@code client-individual}: the messages delivered, ACKed, NACKed and left unacknowledged when a
 * session ended, and how many were delivered but not yet acknowledged, now and at most, over the run and at one
 * subscription. With a slow consumer ({@code consumeMillis}) and a prefetch, the unacknowledged count is what the
 * broker holds for us; the most one subscription held is what a user sets beside the prefetch (RabbitMQ
 * {@code prefetch-count}, Artemis {@code consumer-window-size}), which bounds each subscription, not the run.
 * Thread-safe; counted on I/O and scheduler threads.
 */
public final class AckCounts {

    private final LongAdder delivered = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder ackFrames = new LongAdder();
    private final LongAdder nacked = new LongAdder();
    private final LongAdder abandoned = new LongAdder();
    private final AtomicLong unacked = new AtomicLong();
    private final AtomicLong maxUnacked = new AtomicLong();
    private final AtomicInteger maxAtOneSubscription = new AtomicInteger();

    /** What the counts say at one moment. */
    public record Snapshot(
            long delivered,
            long acked,
            long ackFrames,
            long nacked,
            long abandoned,
            long unacked,
            long maxUnacked,
            int maxAtOneSubscription) {

        /** Whether any message was delivered on a subscription that acknowledges. */
        public boolean any() {
            return delivered > 0;
        }

        @Override
        public String toString() {
            return "acks: delivered=" + delivered + " acked=" + acked + " (" + ackFrames + " ACK frames) nacked="
                    + nacked + " unacked=" + unacked + " (max " + maxUnacked + ", at most " + maxAtOneSubscription
                    + " at one subscription)"
                    + (abandoned == 0 ? "" : " left unacknowledged at a session's end=" + abandoned);
        }
    }

    void delivered() {
        delivered.increment();
        long now = unacked.incrementAndGet();
        if (now > maxUnacked.get()) {
            maxUnacked.accumulateAndGet(now, Math::max);
        }
    }

    /**
     * One subscription holds {@code unacknowledged} messages now, the one just delivered among them. Read first and
     * written only when exceeded: past the first deliveries a compare per message, no write to a shared line.
     */
    void heldByOne(int unacknowledged) {
        if (unacknowledged > maxAtOneSubscription.get()) {
            maxAtOneSubscription.accumulateAndGet(unacknowledged, Math::max);
        }
    }

    /**
     * The consumer is done with {@code messages} and their ACK or NACK is about to be written: no longer ours to
     * hold. Counted before the write, since the broker may deliver the next message (a window of one) before the
     * writing thread returns, and a count taken after would hold both for a moment.
     */
    void settling(long messages) {
        unacked.addAndGet(-messages);
    }

    /** One ACK frame, written, that acknowledged {@code messages} messages (more than one: a cumulative ACK). */
    void acked(long messages) {
        ackFrames.increment();
        acked.add(messages);
    }

    /** One NACK frame, written. */
    void nacked() {
        nacked.increment();
    }

    /** Messages whose ACK or NACK ({@link #settling}) could not be written: the broker delivers them again. */
    void unwritten(long messages) {
        abandoned.add(messages);
    }

    /** Messages delivered that the session ended without acknowledging: the broker delivers them again. */
    void abandoned(long messages) {
        if (messages > 0) {
            abandoned.add(messages);
            unacked.addAndGet(-messages);
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(
                delivered.sum(),
                acked.sum(),
                ackFrames.sum(),
                nacked.sum(),
                abandoned.sum(),
                unacked.get(),
                maxUnacked.get(),
                maxAtOneSubscription.get());
    }

    @Override
    public String toString() {
        return "AckCounts[" + snapshot() + "]";
    }
}
