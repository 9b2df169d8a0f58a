package io.github.sockjsstomp.timing;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a sender's messages are timed.
 *
 * @param replyTimeoutMillis after this a message without a reply is LOST
 * @param repliesPerMessage replies that complete a message; 0 for a broadcast (every reply until the timeout)
 * @param mode what the sender waits for, and what answers its messages (a reply, or with
 *     {@link SendMode#AWAIT_RECEIPT} the receipt)
 * @param idHeader header that carries the id on replies; also stamped on sends
 * @param replyIdPattern regex with one group that finds the id in a reply body; null to scan for our ids
 * @param fromSenderOnly whether only a reply the sender itself receives answers the message (an echo on a topic
 *     that every user sees: the round trip is the sender's); otherwise a reply to any user does (chat)
 * @param receipts whether every SEND asks for a RECEIPT (its id is the message id); always with await-receipt
 */
public record TimingOptions(
        long replyTimeoutMillis,
        int repliesPerMessage,
        SendMode mode,
        String idHeader,
        Pattern replyIdPattern,
        boolean fromSenderOnly,
        boolean receipts) {

    public static final String DEFAULT_ID_HEADER = "x-msg-id";

    public TimingOptions {
        if (replyTimeoutMillis <= 0) {
            throw new IllegalArgumentException("replyTimeoutMillis must be positive, was " + replyTimeoutMillis);
        }
        if (repliesPerMessage < 0) {
            throw new IllegalArgumentException("repliesPerMessage must be >= 0, was " + repliesPerMessage);
        }
        idHeader = idHeader == null ? "" : idHeader.trim();
        receipts = receipts || mode.answeredByReceipt();
    }

    /** Whether the sender waits for each message's answer (reply or receipt). */
    public boolean awaitReply() {
        return mode.awaits();
    }

    /** Whether messages are timed alike (a Pattern has no equals of its own). */
    public boolean sameAs(TimingOptions other) {
        return replyTimeoutMillis == other.replyTimeoutMillis
                && repliesPerMessage == other.repliesPerMessage
                && mode == other.mode
                && idHeader.equals(other.idHeader)
                && fromSenderOnly == other.fromSenderOnly
                && receipts == other.receipts
                && Objects.equals(source(replyIdPattern), source(other.replyIdPattern));
    }

    private static String source(Pattern pattern) {
        return pattern == null ? null : pattern.pattern();
    }
}
