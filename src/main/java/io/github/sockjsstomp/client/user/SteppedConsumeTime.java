package io.github.sockjsstomp.client.user;

/**
 * The consumers' time per message as a stepped run sets it ({@code stepKind=consume}), one for every acknowledging
 * subscription of the engine: the steps write it as their offer moves, and each subscription reads it as a message
 * comes, so a step changes every consumer at once without a thread per user or a list of subscriptions to visit. A
 * message takes the time in force when it arrives (one already waiting keeps its own), as a consumer that had
 * already begun would. Until the steps set it, each subscription keeps its own {@code consumeMillis}.
 */
public final class SteppedConsumeTime {

    /** Below 0: not stepped. */
    private volatile long nanos = -1;

    /** The steps' offer now, in milliseconds per message (0 and above). */
    public void millis(double millis) {
        nanos = Math.round(Math.max(0, millis) * 1_000_000);
    }

    /** The time a message that arrives now takes: the steps', or {@code ownNanos} when no steps set it. */
    long nanosOr(long ownNanos) {
        long stepped = nanos;
        return stepped < 0 ? ownNanos : stepped;
    }

    @Override
    public String toString() {
        long stepped = nanos;
        return "SteppedConsumeTime[" + (stepped < 0 ? "not stepped" : stepped / 1e6 + " ms") + "]";
    }
}
