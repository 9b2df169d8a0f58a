package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.IncomingMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sent message waiting for its replies. Its state moves once, by compare-and-set, from PENDING to exactly
 * one of ANSWERED, LOST or FAILED, so every message lands in one column of the books whatever thread
 * (sender, I/O thread, expiry sweeper, end of test) gets there first.
 */
public final class PendingMessage {

    static final int PENDING = 0;
    static final int ANSWERED = 1;
    static final int LOST = 2;
    static final int FAILED = 3;

    final String msgId;
    final String sender;
    final String destination;
    final long bytes;
    final long sentEpochMillis;
    final long sentNanos;
    final long deadlineNanos;
    /** 0: a broadcast, every reply until the deadline counts. */
    final int repliesExpected;
    final TimingSink sink;
    private final AtomicInteger state = new AtomicInteger(PENDING);
    private final AtomicInteger replies = new AtomicInteger();
    /** Only for await-reply senders: fire-and-forget allocates nothing here. */
    private final CompletableFuture<IncomingMessage> firstReply;

    PendingMessage(String msgId, String sender, String destination, long bytes, long sentEpochMillis,
            long sentNanos, long timeoutNanos, int repliesExpected, TimingSink sink, boolean awaited) {
        this.msgId = msgId;
        this.sender = sender;
        this.destination = destination;
        this.bytes = bytes;
        this.sentEpochMillis = sentEpochMillis;
        this.sentNanos = sentNanos;
        this.deadlineNanos = sentNanos + timeoutNanos;
        this.repliesExpected = repliesExpected;
        this.sink = sink;
        this.firstReply = awaited ? new CompletableFuture<>() : null;
    }

    public String msgId() {
        return msgId;
    }

    public long sentNanos() {
        return sentNanos;
    }

    /**
     * Waits for the first reply, wherever it arrives.
     *
     * @return the reply, or null when the message was lost, failed or the wait timed out
     */
    public IncomingMessage awaitFirstReply(long timeoutMillis) throws InterruptedException {
        if (firstReply == null) {
            throw new IllegalStateException("message " + msgId + " was not sent for await-reply");
        }
        try {
            return firstReply.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        }
    }

    /** @return the reply's number (1 for the first), or 0 if the message already ended as LOST or FAILED */
    int reply(IncomingMessage message) {
        int current = state.get();
        if (current == PENDING && state.compareAndSet(PENDING, ANSWERED)) {
            replies.incrementAndGet();
            if (firstReply != null) {
                firstReply.complete(message);
            }
            return 1;
        }
        if (state.get() == ANSWERED) {
            return replies.incrementAndGet();
        }
        return 0;
    }

    boolean end(int outcome) {
        boolean ended = state.compareAndSet(PENDING, outcome);
        if (ended && firstReply != null) {
            firstReply.complete(null);
        }
        return ended;
    }

    boolean answered() {
        return state.get() == ANSWERED;
    }

    boolean complete() {
        return repliesExpected > 0 && replies.get() >= repliesExpected;
    }

    @Override
    public String toString() {
        return "PendingMessage[" + msgId + " from " + sender + " to " + destination + ", state " + state.get()
                + ", replies " + replies.get() + "]";
    }
}
