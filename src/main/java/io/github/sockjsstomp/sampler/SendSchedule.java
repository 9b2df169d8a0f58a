package io.github.sockjsstomp.sampler;

import java.util.concurrent.TimeUnit;

/**
 * A thread's send schedule (the scheduled sender, {@code ratePerThread > 0}): message i of the thread (from 0) is
 * intended at {@code start + i x interval}, whatever happened to the messages before it, so a late send never
 * moves the ones after it (an open loop: the lag behind schedule is measured, not absorbed). The thread wakes at
 * most once per {@code tickMillis}: at a per-thread rate above one message per tick, the messages due by a
 * wake-up share it.
 *
 * <p>Pure arithmetic on a nanosecond clock the caller reads ({@link System#nanoTime()}), so tests drive it with
 * numbers. Not thread-safe: one per JMeter thread, like its sampler.
 */
final class SendSchedule {

    /** The most messages one tick sends: a thread far behind catches up over several samples, each bounded. */
    static final int MAX_PER_TICK = 1000;

    private final double intervalNanos;
    private final long tickNanos;
    private boolean started;
    private long startNanos;
    /** The number of the next message to send (0-based). */
    private long next;

    private long lastWakeNanos;

    /**
     * @param perMinute messages per minute for the thread, more than 0
     * @param tickMillis the shortest time between two wake-ups, 0 or more
     */
    SendSchedule(double perMinute, long tickMillis) {
        if (!(perMinute > 0) || Double.isInfinite(perMinute)) {
            throw new IllegalArgumentException("perMinute must be a positive number: " + perMinute);
        }
        if (tickMillis < 0) {
            throw new IllegalArgumentException("tickMillis must be 0 or more: " + tickMillis);
        }
        this.intervalNanos = TimeUnit.MINUTES.toNanos(1) / perMinute;
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
    }

    /** Message 0 is due at {@code nowNanos}; once only, later calls change nothing. */
    void start(long nowNanos) {
        if (!started) {
            started = true;
            startNanos = nowNanos;
            lastWakeNanos = nowNanos - tickNanos;
        }
    }

    /** The number of the next message to send, from 0: it goes to user {@code next % users}. */
    long next() {
        return next;
    }

    /** When message {@code message} is intended to be sent. */
    long intendedNanos(long message) {
        return startNanos + (long) (message * intervalNanos);
    }

    /** How many messages are due by {@code nowNanos} and not yet sent, at most {@link #MAX_PER_TICK}. */
    int due(long nowNanos) {
        long due = lastDue(nowNanos) + 1 - next;
        return (int) Math.max(0, Math.min(MAX_PER_TICK, due));
    }

    /** The number of the last message due by {@code nowNanos}; -1 before the first. */
    private long lastDue(long nowNanos) {
        long since = nowNanos - startNanos;
        return since < 0 ? -1 : (long) Math.floor(since / intervalNanos);
    }

    /** When to wake up next: when the next message is due, but no sooner than one tick after the last wake-up. */
    long wakeNanos() {
        long due = intendedNanos(next);
        long earliest = lastWakeNanos + tickNanos;
        return due - earliest >= 0 ? due : earliest;
    }

    /** The thread woke (or found messages due) at {@code nowNanos}. */
    void woke(long nowNanos) {
        lastWakeNanos = nowNanos;
    }

    /** The next message was sent or attempted (whatever its outcome, it is in the books). */
    void sent() {
        next++;
    }

    /**
     * Gives up the messages that fell due more than one interval before {@code nowNanos} (the thread could
     * send nothing: every user down, waiting to reconnect) and returns how many: after an outage the thread
     * resumes its rate, it does not send the backlog in one burst. The message due now stays due.
     */
    long skipMissed(long nowNanos) {
        long lastDue = lastDue(nowNanos);
        if (lastDue <= next) {
            return 0;
        }
        long skipped = lastDue - next;
        next = lastDue;
        return skipped;
    }

    /** How far behind its schedule message {@code message} is at {@code nowNanos} (negative: early). */
    long lagNanos(long message, long nowNanos) {
        return nowNanos - intendedNanos(message);
    }

    @Override
    public String toString() {
        return "SendSchedule[interval " + Math.round(intervalNanos / 1000) + " us, tick " + tickNanos / 1000
                + " us, next #" + next + "]";
    }
}
