package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.message.AckMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.scheduling.TaskScheduler;

/**
 * The acknowledgements of one subscription of one session ({@code ack} {@code client} or {@code client-individual}):
 * each delivered message is consumed for {@code consumeMillis} (or the time a stepped run sets, {@link
 * SteppedConsumeTime}, in force when the message comes), one after another as a single consumer thread would,
 * then ACKed or NACKed ({@link NackSpread}); {@code client} sends one cumulative ACK every {@code ackEvery} messages.
 * No thread waits: the next acknowledgement due is one task on the consumers' scheduler (a precise one: the
 * heart-beats' wheels tick every 25 ms, which would add up to that to every consume time), so the frames of a
 * subscription go in the order the messages came; with no consume time each is sent at once by the I/O thread
 * that read the message. STOMP 1.2 names a message by its {@code ack} header, 1.1 by its
 * {@code message-id} and {@code subscription}: each frame carries all three that the message had.
 */
final class SubscriptionAcks {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionAcks.class);
    private static final String REDELIVERED = "redelivered";
    private static final String SUBSCRIPTION = "subscription";

    /** A delivered message waiting until its consumer is done with it. */
    private record Pending(String ackId, String messageId, String subscription, boolean nack, long dueNanos) {}

    /** A frame to send: ACK or NACK of {@code covers} messages. */
    private record Frame(Pending message, boolean ack, long covers) {}

    private final StompSession session;
    private final AckSettings settings;
    private final TaskScheduler scheduler;
    private final long consumeNanos;
    private final NackSpread spread;
    private final Object owner;

    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private final Runnable drain = this::drain;
    /** Whether a drain is scheduled or running: then nothing else sends. */
    private boolean armed;

    private long lastDueNanos = Long.MIN_VALUE;
    /** {@code client}: the messages consumed since the last cumulative ACK, and the last of them. */
    private long unackedSinceLast;

    private Pending lastConsumed;
    private boolean closed;

    SubscriptionAcks(StompSession session, AckSettings settings, TaskScheduler scheduler, Object owner) {
        this.session = session;
        this.settings = settings;
        this.scheduler = scheduler;
        this.consumeNanos = TimeUnit.MILLISECONDS.toNanos(settings.consumeMillis());
        this.spread = new NackSpread(settings.nackShare());
        this.owner = owner;
    }

    /** A MESSAGE of this subscription arrived (on an I/O thread): its acknowledgement is scheduled. */
    void delivered(StompHeaders headers, long receivedNanos) {
        settings.counts().delivered();
        long takesNanos = settings.stepped().nanosOr(consumeNanos);
        String messageId = headers.getMessageId();
        String ackId = headers.getAck() != null ? headers.getAck() : messageId;
        boolean redelivered = "true".equals(headers.getFirst(REDELIVERED));
        long dueNanos;
        List<Frame> frames = null;
        synchronized (this) {
            if (closed) {
                settings.counts().abandoned(1);
                return;
            }
            boolean nack = !redelivered && spread.nextIsNacked();
            long start =
                    lastDueNanos == Long.MIN_VALUE || receivedNanos - lastDueNanos > 0 ? receivedNanos : lastDueNanos;
            dueNanos = start + takesNanos;
            lastDueNanos = dueNanos;
            waiting.add(new Pending(ackId, messageId, headers.getFirst(SUBSCRIPTION), nack, dueNanos));
            // what the consumer has not yet settled: those it is working on, and with client those done but not
            // yet covered by a cumulative ACK (a frame taken for writing is settled: the broker hears of it next)
            settings.counts().heldByOne(waiting.size() + (int) unackedSinceLast);
            if (armed) {
                return;
            }
            if (takesNanos == 0) {
                // nothing to consume: acknowledged at once, on the I/O thread that read it, so in the order they
                // came; a scheduler would hold a prefetch-1 consumer to one message per wake-up
                frames = takeDue(dueNanos);
            } else {
                armed = true;
            }
        }
        if (frames != null) {
            send(frames);
            return;
        }
        schedule(dueNanos);
    }

    private void schedule(long dueNanos) {
        long inNanos = Math.max(0, dueNanos - System.nanoTime());
        try {
            scheduler.schedule(drain, Instant.now().plus(Duration.ofNanos(inNanos)));
        } catch (RuntimeException e) {
            // the scheduler is shut down: the JVM is ending
            log.debug("{}: acknowledgements not scheduled: {}", owner, e.toString());
            lost();
        }
    }

    /** Sends what is due, on the scheduler, then schedules the next one due. */
    private void drain() {
        List<Frame> frames;
        synchronized (this) {
            frames = takeDue(System.nanoTime());
        }
        send(frames);
        long nextDue;
        synchronized (this) {
            Pending next = waiting.peek();
            if (next == null || closed) {
                armed = false;
                return;
            }
            nextDue = next.dueNanos;
        }
        schedule(nextDue);
    }

    /** The frames for the messages consumed by {@code nowNanos}, in order. Under the lock. */
    private List<Frame> takeDue(long nowNanos) {
        List<Frame> frames = new ArrayList<>();
        while (!waiting.isEmpty() && waiting.peek().dueNanos - nowNanos <= 0) {
            consumed(waiting.poll(), frames);
        }
        return frames;
    }

    private void consumed(Pending message, List<Frame> frames) {
        if (settings.mode() == AckMode.CLIENT_INDIVIDUAL) {
            frames.add(new Frame(message, !message.nack, 1));
            return;
        }
        if (message.nack) {
            // a cumulative NACK would take the messages before it along: ACK those first
            flushCumulative(frames);
            frames.add(new Frame(message, false, 1));
            return;
        }
        unackedSinceLast++;
        lastConsumed = message;
        if (unackedSinceLast >= settings.ackEvery()) {
            flushCumulative(frames);
        }
    }

    private void flushCumulative(List<Frame> frames) {
        if (unackedSinceLast > 0) {
            frames.add(new Frame(lastConsumed, true, unackedSinceLast));
            unackedSinceLast = 0;
            lastConsumed = null;
        }
    }

    private void send(List<Frame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            Frame frame = frames.get(i);
            if (!session.isConnected()) {
                abandon(frames.subList(i, frames.size()));
                lost();
                return;
            }
            StompHeaders headers = new StompHeaders();
            headers.setId(frame.message.ackId);
            if (frame.message.messageId != null) {
                headers.setMessageId(frame.message.messageId);
            }
            if (frame.message.subscription != null) {
                headers.set(SUBSCRIPTION, frame.message.subscription);
            }
            settings.counts().settling(frame.covers);
            try {
                session.acknowledge(headers, frame.ack);
            } catch (RuntimeException e) {
                log.debug("{}: {} failed: {}", owner, frame.ack ? "ACK" : "NACK", Failure.describe(e));
                settings.counts().unwritten(frame.covers);
                abandon(frames.subList(i + 1, frames.size()));
                lost();
                return;
            }
            if (frame.ack) {
                settings.counts().acked(frame.covers);
            } else {
                settings.counts().nacked();
            }
        }
    }

    private void abandon(List<Frame> frames) {
        long messages = 0;
        for (Frame frame : frames) {
            messages += frame.covers;
        }
        settings.counts().abandoned(messages);
    }

    /**
     * Before our DISCONNECT: what the consumer is done with is acknowledged ({@code client}: a last cumulative ACK),
     * what it is still working on stays unacknowledged (the broker delivers it again).
     */
    void finish() {
        List<Frame> frames;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            frames = takeDue(System.nanoTime());
            flushCumulative(frames);
            settings.counts().abandoned(waiting.size());
            waiting.clear();
        }
        send(frames);
    }

    /** The session is gone: nothing more is sent, and what was unacknowledged is the broker's to deliver again. */
    void lost() {
        synchronized (this) {
            if (closed && waiting.isEmpty() && unackedSinceLast == 0) {
                return;
            }
            closed = true;
            settings.counts().abandoned(waiting.size() + unackedSinceLast);
            waiting.clear();
            unackedSinceLast = 0;
            lastConsumed = null;
        }
    }

    @Override
    public synchronized String toString() {
        return "SubscriptionAcks[" + settings.mode() + ", " + waiting.size() + " being consumed, " + owner + "]";
    }
}
