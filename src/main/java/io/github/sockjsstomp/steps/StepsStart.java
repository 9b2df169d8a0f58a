package io.github.sockjsstomp.steps;

/**
 * When a stepped run's step 1 begins its ramp: at a fixed time (an offset from the test's start, or an epoch time
 * in ms that every engine of a distributed run is given), or {@code online}: once every user this engine's plan
 * runs holds a session, and not before a floor (the plans give their ramp-up). A rate step offered while users
 * are still connecting measures the connects, not the rate: 8,000 users take ~20 s to connect to RabbitMQ on a
 * 2-core machine, and a step begun at +10 s sent 6,166 of the 20,000 messages it offered.
 *
 * <p>Waiting for users is bounded by progress, not by a fixed time: when no more users came online for
 * {@link #STALL_MILLIS} the steps begin with those online, so a server that refuses users does not hold the steps
 * forever; the refused users keep reconnecting, and their connects are the steps' failures.
 *
 * @param testStartEpochMs the test's start, which {@code +seconds} and the console's offsets count from
 * @param epochMs the fixed start, or for {@code online} the earliest
 * @param online whether the steps wait for the users
 */
public record StepsStart(long testStartEpochMs, long epochMs, boolean online) {

    /** No more users came online for this long: the steps begin with those online. */
    public static final long STALL_MILLIS = 15_000;

    private static final String ONLINE = "online";

    /**
     * Reads {@code +seconds}, an epoch time in ms, {@code online} or {@code online,+seconds} (online, not before);
     * {@link IllegalArgumentException} says what is expected (its message names no parameter: the caller's does).
     */
    public static StepsStart parse(String text, long testStartEpochMs) {
        String trimmed = text.trim();
        try {
            if (trimmed.equals(ONLINE)) {
                return new StepsStart(testStartEpochMs, testStartEpochMs, true);
            }
            if (trimmed.startsWith(ONLINE + ",")) {
                String floor = trimmed.substring(ONLINE.length() + 1).trim();
                if (floor.startsWith("+")) {
                    return new StepsStart(testStartEpochMs, offset(floor, testStartEpochMs), true);
                }
            } else if (trimmed.startsWith("+")) {
                return new StepsStart(testStartEpochMs, offset(trimmed, testStartEpochMs), false);
            } else {
                long epochMs = Long.parseLong(trimmed);
                if (epochMs > 1_000_000_000_000L) {
                    return new StepsStart(testStartEpochMs, epochMs, false);
                }
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("expected online (when this engine's users are online), online,+seconds "
                + "(online, and not before), +seconds after the test's start (+10) or an epoch time in "
                + "milliseconds (1767225600000, the same for every engine)");
    }

    private static long offset(String plusSeconds, long testStartEpochMs) {
        double seconds = Double.parseDouble(plusSeconds.substring(1));
        if (!(seconds >= 0 && seconds <= 86_400)) {
            throw new NumberFormatException(plusSeconds);
        }
        return testStartEpochMs + Math.round(seconds * 1000);
    }

    /** {@code +21.4 s}: an epoch time as an offset from the test's start. */
    public String sinceTestStart(long epochMs) {
        return String.format("+%.1f s", (epochMs - testStartEpochMs) / 1000.0);
    }

    @Override
    public String toString() {
        String floor = sinceTestStart(epochMs);
        return online ? "when this engine's users are online (not before " + floor + ")" : "at " + floor;
    }
}
