package io.github.sockjsstomp.loops;

import java.util.concurrent.TimeUnit;

/**
 * A thread's send schedule (the scheduled sender, {@code messagesPerSecondPerThread > 0}): message i of the
 * thread (from 0) is intended at {@code start + i x interval}, whatever happened to the messages before it, so a late send never
 * moves the ones after it (an open loop: the lag behind schedule is measured, not absorbed). The thread wakes at
 * most once per {@code tickMillis}: at a per-thread rate above one message per tick, the messages due by a
 * wake-up share it.
 *
 * <p>Pure arithmetic on a nanosecond clock the caller reads ({@link System#nanoTime()}), so tests drive it with
 * numbers. Not thread-safe: one per JMeter thread, like its sampler.
 */
public final class SendSchedule {

    /** The most messages one tick sends: a thread far behind catches up over several samples, each bounded. */
    static final int MAX_PER_TICK = 1000;

    private double intervalNanos;
    private final long tickNanos;
    private boolean started;
    /** Message {@code baseIndex} is intended at {@code baseNanos}, each after it one interval later. */
    private long baseNanos;

    private long baseIndex;
    /** The messages before {@code baseIndex} keep the times of the rate before the last change. */
    private double previousIntervalNanos;

    private long previousBaseNanos;
    private long previousBaseIndex;
    /** A rate of 0 (a stepped run before its first step, after its last): nothing is due. */
    private boolean paused;
    /** The number of the next message to send (0-based). */
    private long next;

    private long lastWakeNanos;

    /**
     * @param perSecond messages per second for the thread, more than 0
     * @param tickMillis the shortest time between two wake-ups, 0 or more
     */
    public SendSchedule(double perSecond, long tickMillis) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("perSecond must be a positive number: " + perSecond);
        }
        if (tickMillis < 0) {
            throw new IllegalArgumentException("tickMillis must be 0 or more: " + tickMillis);
        }
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
        this.previousIntervalNanos = intervalNanos;
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
    }

    /** Message 0 is due at {@code nowNanos}; once only, later calls change nothing. */
    void start(long nowNanos) {
        if (!started) {
            started = true;
            baseNanos = nowNanos;
            previousBaseNanos = nowNanos;
            lastWakeNanos = nowNanos - tickNanos;
        }
    }

    /** The number of the next message to send, from 0: it goes to user {@code next % users}. */
    long next() {
        return next;
    }

    /** When message {@code message} is intended to be sent. */
    long intendedNanos(long message) {
        return message >= baseIndex
                ? baseNanos + (long) ((message - baseIndex) * intervalNanos)
                : previousBaseNanos + (long) ((message - previousBaseIndex) * previousIntervalNanos);
    }

    /**
     * The rate changes to {@code perSecond} at {@code nowNanos} (a step of a stepped run, or its ramp): the
     * messages already due keep their times (a sender behind stays behind, its lag measured), and the next one
     * keeps its phase: the share of an interval it still had to wait is the same share of the new interval, so a
     * ramp that changes the rate at every wake-up moves smoothly. 0 pauses: nothing falls due until a rate
     * above 0 comes back, and then the next message is due at once.
     */
    void rate(double perSecond, long nowNanos) {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            paused = true;
            return;
        }
        double interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
        if (!started) {
            intervalNanos = interval;
            previousIntervalNanos = interval;
            paused = false;
            return;
        }
        if (!paused && Math.abs(interval - intervalNanos) <= intervalNanos * 1e-9) {
            return;
        }
        long nextIndex = paused ? next : lastDue(nowNanos) + 1;
        double phase = paused ? 0 : Math.max(0, intendedNanos(nextIndex) - nowNanos) / intervalNanos;
        previousBaseNanos = baseNanos;
        previousBaseIndex = baseIndex;
        previousIntervalNanos = intervalNanos;
        baseIndex = nextIndex;
        baseNanos = nowNanos + (long) (Math.min(1, phase) * interval);
        intervalNanos = interval;
        paused = false;
    }

    /** Whether the rate is 0 now: nothing is due. */
    boolean paused() {
        return paused;
    }

    /** How many messages are due by {@code nowNanos} and not yet sent, at most {@link #MAX_PER_TICK}. */
    int due(long nowNanos) {
        long due = lastDue(nowNanos) + 1 - next;
        return (int) Math.max(0, Math.min(MAX_PER_TICK, due));
    }

    /** The number of the last message due by {@code nowNanos}; -1 before the first. */
    private long lastDue(long nowNanos) {
        if (paused) {
            return next - 1;
        }
        long since = nowNanos - baseNanos;
        return since < 0 ? baseIndex - 1 : baseIndex + (long) Math.floor(since / intervalNanos);
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
