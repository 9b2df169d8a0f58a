package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.OutgoingMessage;
import io.github.sockjsstomp.client.ReceiptHeaders;
import io.github.sockjsstomp.client.SendFailedException;
import io.github.sockjsstomp.client.Template;
import io.github.sockjsstomp.client.UserListener;
import io.github.sockjsstomp.client.VirtualUser;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * Times the messages one virtual user sends: each SEND gets a unique id (in {@code idHeader} and wherever the
 * payload says {@code {{msgId}}}) and is registered with the run's tracker before it is written; replies on
 * this user's subscriptions are matched against every message of the run. Attached to the user as a listener,
 * so that a sender waiting for its reply learns at once of an ERROR frame or a lost session.
 */
public final class UserTiming implements UserListener {

    private final VirtualUser user;
    private final ReplyTracker tracker;
    private final TimingOptions options;
    private final TimingSink sink;
    private final ReplyMatcher replies;
    /** Written by the owning JMeter thread; read by it and, on an ERROR frame, by an I/O thread. */
    private volatile MessageTiming lastSent;

    private long sends;
    private long firstSendNanos;
    private final LongAdder answered = new LongAdder();

    private UserTiming(VirtualUser user, ReplyTracker tracker, TimingOptions options, TimingSink sink) {
        this.user = user;
        this.tracker = tracker;
        this.options = options;
        this.sink = sink;
        this.replies = new ReplyMatcher(
                tracker, new ReplyIdFinder(options.idHeader(), options.replyIdPattern(), tracker.ids()));
    }

    /** Times what {@code user} sends from now on, its outcomes going to {@code sink}. */
    public static UserTiming attach(VirtualUser user, ReplyTracker tracker, TimingOptions options, TimingSink sink) {
        UserTiming timing = new UserTiming(user, tracker, options, sink);
        user.addListener(timing);
        if (options.receipts()) {
            user.wantReceipts();
        }
        return timing;
    }

    public VirtualUser user() {
        return user;
    }

    /**
     * Builds, registers and writes one timed message. A message that could not be written is in the books as
     * FAILED with the reason.
     *
     * @throws SendFailedException if the session is gone or the write failed
     */
    public OutgoingMessage send(String destination, Map<String, String> headers, Template payload)
            throws SendFailedException {
        long seq = user.nextSeq();
        String msgId = tracker.ids().next();
        long sentAtMillis = System.currentTimeMillis();
        // The receipt id is the message id: the tracker finds a RECEIPT's message as it finds a reply's.
        StompHeaders stompHeaders = options.receipts() ? new ReceiptHeaders(msgId) : new StompHeaders();
        stompHeaders.setDestination(destination);
        headers.forEach(stompHeaders::add);
        if (!options.idHeader().isEmpty()) {
            stompHeaders.set(options.idHeader(), msgId);
        }
        byte[] body = payload.render(Template.of(user.settings(), msgId, seq, sentAtMillis))
                .getBytes(StandardCharsets.UTF_8);
        OutgoingMessage message =
                new OutgoingMessage(user.settings(), destination, stompHeaders, seq, msgId, body, sentAtMillis);
        MessageTiming timing = tracker.register(message, options, sink, answered);
        lastSent = timing;
        if (sends++ == 0) {
            firstSendNanos = System.nanoTime();
        }
        try {
            user.send(stompHeaders, body);
            return message;
        } catch (SendFailedException e) {
            tracker.fail(timing, e.getMessage());
            throw e;
        }
    }

    /**
     * Whether this user sent a few messages, the first longer ago than the reply timeout, and none was answered:
     * the destination, the subscription or the payload is likely wrong (a server that cannot read a payload
     * often answers nothing, or answers without the id).
     */
    public boolean noneAnswered() {
        return sends >= 3
                && answered.sum() == 0
                && System.nanoTime() - firstSendNanos > TimeUnit.MILLISECONDS.toNanos(options.replyTimeoutMillis());
    }

    /** The message this user sent last, for await-reply and await-receipt. */
    public MessageTiming lastSent() {
        return lastSent;
    }

    @Override
    public void onMessage(IncomingMessage message) {
        replies.onMessage(message);
    }

    @Override
    public void onReceipt(String receiptId, long receivedNanos) {
        if (options.receipts()) {
            tracker.receipt(receiptId, user.settings(), receivedNanos);
        }
    }

    /** The server's words fail the message it names, whatever the mode. */
    @Override
    public void onReceiptError(String receiptId, String error) {
        if (options.receipts()) {
            tracker.receiptRefused(receiptId, "StompError: " + error);
        }
    }

    /** The server closes the session after an ERROR frame: the awaited reply will not come. */
    @Override
    public void onStompError(String error) {
        failAwaited("StompError: " + error);
    }

    @Override
    public void onConnectionLost(String reason) {
        failAwaited("ConnectionLost: " + reason);
    }

    private void failAwaited(String reason) {
        MessageTiming waiting = lastSent;
        if (waiting != null && options.awaitReply()) {
            tracker.fail(waiting, reason);
        }
    }

    @Override
    public String toString() {
        return "UserTiming[" + user.settings().name() + "]";
    }
}
