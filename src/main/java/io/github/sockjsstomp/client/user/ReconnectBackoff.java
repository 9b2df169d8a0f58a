package io.github.sockjsstomp.client.user;

import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * How long a virtual user waits before it connects again, as real clients do: after a failed connect, or a
 * session that was lost before it stayed up for {@code maxMillis}, the delay doubles from {@code minMillis} up
 * to {@code maxMillis}, with "equal jitter" (half the delay fixed, half random) so that thousands of users lost
 * at once do not come back in step. A session that stayed up that long starts over from {@code minMillis}; the
 * first connect of a user waits for nothing.
 *
 * <p>The policy is shared; each user has a {@link Schedule}, owned by one thread. Times are {@link System#nanoTime}
 * values passed in, so tests drive the clock.
 */
public final class ReconnectBackoff {

    public static final long DEFAULT_MIN_MILLIS = 1000;
    public static final long DEFAULT_MAX_MILLIS = 30_000;

    private final long minMillis;
    private final long maxMillis;
    private final RandomGenerator random;

    /**
     * @param minMillis the delay after the first failure (half of it at least, with jitter), 1 or more
     * @param maxMillis the longest delay, at least {@code minMillis}; also how long a session must stay up for
     *     the delay to start over
     * @param random the jitter's source
     */
    public ReconnectBackoff(long minMillis, long maxMillis, RandomGenerator random) {
        if (minMillis < 1 || maxMillis < minMillis) {
            throw new IllegalArgumentException(
                    "reconnect delays must be 1 <= min <= max, were min=" + minMillis + " max=" + maxMillis);
        }
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
        this.random = random;
    }

    public static ReconnectBackoff defaults() {
        return new ReconnectBackoff(DEFAULT_MIN_MILLIS, DEFAULT_MAX_MILLIS, RandomGenerator.getDefault());
    }

    public long minMillis() {
        return minMillis;
    }

    public long maxMillis() {
        return maxMillis;
    }

    /** The delay's cap after {@code failures} failures in a row: min, 2 min, 4 min ... max. */
    long ceilingMillis(int failures) {
        int doublings = Math.min(Math.max(failures - 1, 0), 62);
        long ceiling = minMillis << Math.min(doublings, Long.numberOfLeadingZeros(minMillis) - 1);
        return Math.min(maxMillis, ceiling);
    }

    /** The wait after {@code failures} failures in a row (1 or more): half the ceiling, plus up to half at random. */
    long delayNanos(int failures) {
        long ceiling = TimeUnit.MILLISECONDS.toNanos(ceilingMillis(failures));
        long half = ceiling / 2;
        return ceiling - half + (half == 0 ? 0 : random.nextLong(half + 1));
    }

    /** A new user's schedule: its first connect is due at once. */
    public Schedule schedule() {
        return new Schedule();
    }

    @Override
    public String toString() {
        return "ReconnectBackoff[" + minMillis + "-" + maxMillis + " ms, equal jitter]";
    }

    /** One user's: when it may connect next. Not thread-safe: the user's JMeter thread owns it. */
    public final class Schedule {

        private int failures;
        private boolean waiting;
        private long dueNanos;
        private boolean up;
        private long upSinceNanos;

        private Schedule() {}

        /** Whether the user may connect at {@code nowNanos}. */
        public boolean isDue(long nowNanos) {
            return !waiting || nowNanos - dueNanos >= 0;
        }

        /** When the next connect is due; meaningful while {@link #isWaiting()}. */
        public long dueNanos() {
            return dueNanos;
        }

        /** Whether the user failed or lost its session and has not connected since. */
        public boolean isWaiting() {
            return waiting;
        }

        /** Whether the last connect succeeded and no loss was seen since. */
        public boolean isUp() {
            return up;
        }

        /** Failed connects (and sessions lost early) in a row. */
        public int failures() {
            return failures;
        }

        /** The connect succeeded: nothing is due; the delay starts over only once the session stays up. */
        public void connected(long nowNanos) {
            waiting = false;
            up = true;
            upSinceNanos = nowNanos;
        }

        /** The connect failed: the next one waits longer than the last. */
        public void failed(long nowNanos) {
            up = false;
            if (failures < Integer.MAX_VALUE) {
                failures++;
            }
            waiting = true;
            dueNanos = nowNanos + delayNanos(failures);
        }

        /**
         * The session was seen lost at {@code nowNanos}: after a session that stayed up for the longest delay
         * the wait starts over from the shortest; one lost sooner (an ERROR right after CONNECT or SUBSCRIBE, a
         * server that drops what it accepts) counts as one more failure.
         */
        public void lost(long nowNanos) {
            if (up && nowNanos - upSinceNanos >= TimeUnit.MILLISECONDS.toNanos(maxMillis)) {
                failures = 0;
            }
            failed(nowNanos);
        }

        @Override
        public String toString() {
            return "Schedule[" + (up ? "up" : waiting ? failures + " failures, waiting" : "due") + "]";
        }
    }
}
