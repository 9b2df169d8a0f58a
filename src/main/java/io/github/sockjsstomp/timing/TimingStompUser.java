package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.OutgoingMessage;
import io.github.sockjsstomp.client.SharedStompClients;
import io.github.sockjsstomp.client.StompUser;
import io.github.sockjsstomp.client.UserSettings;

/**
 * A user whose messages are timed from send to reply: every
 * SEND gets a unique id, in the {@code idHeader} header and wherever the payload says {@code {{msgId}}};
 * every MESSAGE this user receives is matched, by that id, against all messages sent in the JVM.
 */
public class TimingStompUser extends StompUser {

    private final ReplyTracker tracker;
    /** Replaced, rarely, by the sampler that sends on sessions another sampler opened; read by I/O threads. */
    private volatile Timing timing;
    /** Written by the owning JMeter thread; read by it and, on an ERROR frame, by an I/O thread. */
    private volatile PendingMessage lastSent;

    public TimingStompUser(SharedStompClients shared, UserSettings settings, ReplyTracker tracker,
            TimingOptions options, TimingSink sink) {
        super(shared, settings);
        this.tracker = tracker;
        useTiming(options, sink);
    }

    private record Timing(TimingOptions options, TimingSink sink, ReplyIdFinder idFinder) {
    }

    /**
     * How this user's messages are timed from now on, and where their outcomes go: set by the sampler that
     * sends on this session when another sampler of the thread (the session sampler) opened it.
     */
    public final void useTiming(TimingOptions options, TimingSink sink) {
        timing = new Timing(options, sink, new ReplyIdFinder(options.idHeader(), options.replyIdPattern(),
                tracker.ids()));
    }

    @Override
    protected String newMessageId() {
        return tracker.ids().next();
    }

    @Override
    protected void beforeSend(OutgoingMessage message) {
        Timing current = timing;
        TimingOptions options = current.options();
        if (!options.idHeader().isEmpty()) {
            message.headers().set(options.idHeader(), message.msgId());
        }
        lastSent = tracker.register(message, options.replyTimeoutMillis(), options.repliesPerMessage(),
                current.sink(), options.awaitReply());
    }

    @Override
    protected void afterSendFailed(OutgoingMessage message, String reason) {
        PendingMessage failed = lastSent;
        if (failed != null && failed.msgId().equals(message.msgId())) {
            tracker.fail(failed, reason);
        }
    }

    @Override
    protected void onMessage(IncomingMessage message) {
        tracker.reply(timing.idFinder().find(message), message);
    }

    /**
     * A sender waiting for its reply learns of an ERROR frame at once: the server closes the session after
     * one, so the reply will not come. The message is FAILED with the server's words.
     */
    @Override
    protected void onStompError(String error) {
        PendingMessage waiting = lastSent;
        if (waiting != null && timing.options().awaitReply()) {
            tracker.fail(waiting, "StompError: " + error);
        }
    }

    /** A sender waiting for its reply learns at once that its session is gone: the reply will not come. */
    @Override
    protected void onConnectionLost(String reason) {
        PendingMessage waiting = lastSent;
        if (waiting != null && timing.options().awaitReply()) {
            tracker.fail(waiting, "ConnectionLost: " + reason);
        }
    }

    /** The message this user sent last, for await-reply. */
    public PendingMessage lastSent() {
        return lastSent;
    }
}
