package io.github.sockjsstomp.threadusers;

import java.util.concurrent.TimeUnit;

/**
 * Which of a thread's users a sampler takes next: round-robin, passing over the users that wait out a reconnect
 * backoff ({@link Reconnects}) to the next connected one, so a user in backoff does not turn every sample into a
 * failed connect. Every look at a user that finds it down notes the loss ({@link Reconnects#lost}) on the way.
 *
 * <p>Only {@link #awaitNextDue} waits; every other answer is at once, an index or -1. Not thread-safe: one JMeter
 * thread owns it.
 */
public final class UserTurns {

    /** What the turns need to know of each user, by index, and the one thing they do: note a loss. */
    interface States {
        /** Whether the user's session is open (one gone silent counts as open). */
        boolean isConnected(int index);

        /** The user was seen not connected: a session that was up until now starts its backoff. */
        void lost(int index);

        /** Whether the user's backoff lets it connect at {@code nowNanos}. */
        boolean isDue(int index, long nowNanos);

        /** When the user may connect again, while it waits. */
        long dueNanos(int index);

        /** Whether the user, seen not connected, lost a session that no sample said yet. */
        boolean hasUnsaidLoss(int index);

        /** Whether a connect of the user is under way ({@link ConnectsInFlight}): it is not to be started again. */
        default boolean isConnecting(int index) {
            return false;
        }

        /** The most a wait for a user's backoff can last. */
        long longestDelayNanos();
    }

    private final int count;
    private final States states;
    /** The user in turn next: round-robin over all of them. */
    private int next;

    UserTurns(int count, States states) {
        this.count = count;
        this.states = states;
    }

    /** Takes the next turn: the user whose turn it is, whatever its state, round-robin; the turn moves on by one. */
    public int takeTurn() {
        int index = next;
        next = next + 1 == count ? 0 : next + 1;
        return index;
    }

    /**
     * The user to use for turn {@code from}: that user if it is connected or due to connect (the caller connects
     * it); else, while it backs off, the next connected user after it; -1 when it is not due and none is
     * connected.
     */
    public int usable(int from) {
        if (connectedElseNoteLoss(from) || states.isDue(from, System.nanoTime())) {
            return from;
        }
        return nextConnected(from);
    }

    /** The first connected user from {@code from} on, round-robin; -1 if none is. */
    public int nextConnected(int from) {
        for (int i = 0; i < count; i++) {
            int index = (from + i) % count;
            if (connectedElseNoteLoss(index)) {
                return index;
            }
        }
        return -1;
    }

    /**
     * The first user from {@code from} on, round-robin, that is down, not connecting, and either lost a session no sample said yet
     * ({@link Reconnects#hasUnsaidLoss}) or is due to connect; -1 if none is.
     */
    public int nextToConnect(int from) {
        for (int i = 0; i < count; i++) {
            int index = (from + i) % count;
            if (!connectedElseNoteLoss(index)
                    && !states.isConnecting(index)
                    && (states.hasUnsaidLoss(index) || states.isDue(index, System.nanoTime()))) {
                return index;
            }
        }
        return -1;
    }

    /** Whether user {@code index} is down and may connect now: its first connect, or its backoff is over. */
    public boolean isDue(int index) {
        return !connectedElseNoteLoss(index) && states.isDue(index, System.nanoTime());
    }

    /** How many users are down. */
    public int downCount() {
        int down = 0;
        for (int index = 0; index < count; index++) {
            if (!connectedElseNoteLoss(index)) {
                down++;
            }
        }
        return down;
    }

    /**
     * Waits, outside any sample's time, until the user not connected whose connect is due first may connect,
     * and returns its index; -1 (at once) when every user is connected. The wait is bounded by the longest
     * reconnect delay, and JMeter's Stop ends it (the sampler interrupts its thread).
     */
    public int awaitNextDue() throws InterruptedException {
        int earliest = -1;
        long earliestNanos = 0;
        long now = System.nanoTime();
        for (int index = 0; index < count; index++) {
            if (connectedElseNoteLoss(index) || states.isConnecting(index)) {
                continue;
            }
            if (states.isDue(index, now)) {
                return index;
            }
            long due = states.dueNanos(index);
            if (earliest < 0 || due - earliestNanos < 0) {
                earliest = index;
                earliestNanos = due;
            }
        }
        if (earliest >= 0) {
            TimeUnit.NANOSECONDS.sleep(Math.min(states.longestDelayNanos(), earliestNanos - System.nanoTime()));
        }
        return earliest;
    }

    /** Whether user {@code index} is connected; finding it down, notes the loss ({@link Reconnects#lost}). */
    private boolean connectedElseNoteLoss(int index) {
        if (states.isConnected(index)) {
            return true;
        }
        states.lost(index);
        return false;
    }
}
