package io.github.sockjsstomp.timing;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the tracker needs to know of one sender (a virtual user's {@link UserTiming}) when one of its messages ends:
 * how many of its messages were answered (a sender none of whose messages is answered gets a hint), and when the
 * server last refused one of its frames with an ERROR (a message LOST after that was likely refused, not lost).
 * One per sender; messages hold a reference to it, so nothing is allocated per message.
 */
final class SenderBook {

    final LongAdder answered = new LongAdder();
    private volatile boolean refused;
    private volatile long refusedNanos;

    /** The server refused a frame of this sender's session (an ERROR on an open session) at {@code nanos}. */
    void refused(long nanos) {
        refusedNanos = nanos;
        refused = true;
    }

    /** Whether the server refused a frame of this sender at or after {@code sentNanos}. */
    boolean refusedSince(long sentNanos) {
        return refused && refusedNanos - sentNanos >= 0;
    }

    /**
     * Whether a sender that sent {@code sends} messages, the first at {@code firstSendNanos}, had none answered
     * within {@code timeoutNanos} by {@code nowNanos} with nothing the run already says to explain it: a server that
     * refused its frames with an ERROR since then is said by the refusals' own lines, and a hint to check the
     * destination, the subscription or the payload would point the wrong way.
     */
    boolean noneAnsweredUnexplained(long sends, long firstSendNanos, long timeoutNanos, long nowNanos) {
        return sends >= 3
                && answered.sum() == 0
                && nowNanos - firstSendNanos > timeoutNanos
                && !refusedSince(firstSendNanos);
    }
}
