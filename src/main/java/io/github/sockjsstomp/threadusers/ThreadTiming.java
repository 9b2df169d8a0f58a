package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.timing.ReplyTracker;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.UnsaidRefusals;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.List;

/**
 * How a thread's users' messages are timed: attached by the first sender that sends on them, once, which every later
 * sender on the same users must match; and the server's refusals on their sessions that no sample said yet.
 */
public final class ThreadTiming {

    private final List<VirtualUser> users;
    /** The server's refusals on these users' sessions that no sample said yet. */
    private final UnsaidRefusals refusals = new UnsaidRefusals();

    private String timedBy;
    private TimingOptions timedWith;
    private TimingSink timedInto;
    private List<UserTiming> timings;

    ThreadTiming(List<VirtualUser> users) {
        this.users = users;
    }

    /** What a sample says of the server's ERROR frames on the thread's open sessions. */
    public static String refusedText(String serverErrors) {
        return "The server refused frames of this thread's users with an ERROR (the session stays open): "
                + serverErrors;
    }

    /** ERROR frames on these users' open sessions that no sample of the thread said yet. */
    public UnsaidRefusals refusals() {
        return refusals;
    }

    /**
     * Times what these users send, the way {@code sampler} says, and returns the timing of each user in order.
     * Timing attaches once; a second sender on the same users must time alike.
     *
     * @throws IllegalStateException saying why not: two senders that time differently cannot share users
     */
    public List<UserTiming> attach(String sampler, TimingOptions options, TimingSink sink, ReplyTracker tracker) {
        if (timings == null) {
            timedBy = sampler;
            timedWith = options;
            timedInto = sink;
            timings = users.stream()
                    .map(u -> UserTiming.attach(u, tracker, options, sink, refusals))
                    .toList();
        } else if (!options.sameAs(timedWith) || sink != timedInto) {
            throw new IllegalStateException("'" + sampler + "' and '" + timedBy + "' send on the same thread's "
                    + "users with different mode, replyTimeoutMillis, repliesPerMessage, idHeader, replyIdPattern "
                    + "or timingLog; give them the same");
        }
        return timings;
    }
}
