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
}
