package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.client.user.UserListener;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.client.wiring.ReceiptHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
    private final SenderBook book = new SenderBook();
    /** The ERROR frames no sample of the sender's thread has said yet; shared by the thread's users. */
    private final UnsaidRefusals unsaid;

    private UserTiming(
            VirtualUser user, ReplyTracker tracker, TimingOptions options, TimingSink sink, UnsaidRefusals unsaid) {
        this.user = user;
        this.tracker = tracker;
        this.options = options;
        this.sink = sink;
        this.unsaid = unsaid;
        this.replies = new ReplyMatcher(
                tracker, new ReplyIdFinder(options.idHeader(), options.replyIdPattern(), tracker.ids()));
    }

    /** Times what {@code user} sends from now on, its outcomes going to {@code sink}. */
    public static UserTiming attach(VirtualUser user, ReplyTracker tracker, TimingOptions options, TimingSink sink) {
        return attach(user, tracker, options, sink, new UnsaidRefusals());
    }

    /** As above; the server's refusals that name no answered sample go to {@code unsaid}, the thread's. */
    public static UserTiming attach(
            VirtualUser user, ReplyTracker tracker, TimingOptions options, TimingSink sink, UnsaidRefusals unsaid) {
        UserTiming timing = new UserTiming(user, tracker, options, sink, unsaid);
        user.addListener(timing);
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
        return send(destination, destination, headers, payload);
    }

    /**
     * As {@link #send(String, Map, Template)}, with the destination as the plan writes it ({@code /queue/d.{{userNumber}}}
     * for {@code /queue/d.17}): the label its reply row is counted under, one for all the users that render it.
     */
    public OutgoingMessage send(
            String destination, String destinationAsWritten, Map<String, String> headers, Template payload)
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
        MessageTiming timing = tracker.register(message, destinationAsWritten, options, sink, book);
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
     * Whether this user sent a few messages, the first longer ago than the reply timeout, none was answered and the
     * server refused none of them: the destination, the subscription or the payload is likely wrong (a server that
     * cannot read a payload often answers nothing, or answers without the id).
     */
    public boolean noneAnswered() {
        return book.noneAnsweredUnexplained(
                sends, firstSendNanos, TimeUnit.MILLISECONDS.toNanos(options.replyTimeoutMillis()), System.nanoTime());
    }

    /** Where this user sent its last message; null before its first. */
    public String lastDestination() {
        MessageTiming last = lastSent;
        return last == null ? null : last.destination;
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
    public boolean wantsReceipts() {
        return options.receipts();
    }

    @Override
    public void onReceipt(String receiptId, long receivedNanos) {
        if (options.receipts()) {
            tracker.receipt(receiptId, user.settings(), receivedNanos);
        }
    }

    /**
     * The server refused a frame of this user's open session. The message it refuses is FAILED with the server's
     * words when the frame names it (its {@code receipt-id}, our id header, or our id quoted in its body), or when
     * this user waits for each answer (await-reply, await-receipt): it has then exactly one message in flight, since
     * the next is written only once the last was answered or its deadline passed, and a server answers a session's
     * frames in order. Otherwise nothing tells which of the messages in flight it refuses: they stay LOST at their
     * deadline, and the run counts them as LOST while refused. A sample that did not say it yet goes to the thread's
     * next sample.
     */
    @Override
    public void onRefusal(StompHeaders headers, byte[] body, String errorText) {
        String said = Refusals.shorten(errorText);
        MessageTiming named = named(headers, body);
        MessageTiming inFlight = lastSent;
        if (named == null && options.awaitReply() && inFlight != null && inFlight.pending()) {
            named = inFlight;
        }
        String destination = named != null
                ? "SEND to " + named.destination
                : inFlight == null ? null : "its last SEND went to " + inFlight.destination;
        tracker.refused(book, named, said, destination, user.settings().name());
        if (named == null || !options.awaitReply()) {
            unsaid.note(said);
        }
    }

    /** The message an ERROR frame names, if it names one of ours still in flight. */
    private MessageTiming named(StompHeaders headers, byte[] body) {
        MessageTiming byReceipt = tracker.known(headers.getReceiptId());
        if (byReceipt != null) {
            return byReceipt;
        }
        if (!options.idHeader().isEmpty()) {
            MessageTiming byHeader = tracker.known(headers.getFirst(options.idHeader()));
            if (byHeader != null) {
                return byHeader;
            }
        }
        return tracker.known(tracker.ids().findIn(body));
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
