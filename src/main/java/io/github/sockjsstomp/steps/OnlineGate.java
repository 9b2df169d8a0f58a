package io.github.sockjsstomp.steps;

/**
 * Whether steps that begin {@code online} may begin: asked on the steps' clock with the sessions held now and the
 * users expected. They begin when every expected user holds a session (not before the floor), or when no more
 * came online for the stall time (a server refusing users must not hold the steps forever).
 */
final class OnlineGate {

    private final StepsStart start;
    private final long stallMillis;
    private long mostHeld = -1;
    private long lastGrowthEpochMs;

    OnlineGate(StepsStart start, long stallMillis) {
        this.start = start;
        this.stallMillis = stallMillis;
    }

    /** The words of the steps' beginning, or null while they wait. */
    String check(long nowEpochMs, long held, long expected) {
        if (held > mostHeld) {
            mostHeld = held;
            lastGrowthEpochMs = nowEpochMs;
        }
        if (nowEpochMs < start.epochMs()) {
            return null;
        }
        String online = online(nowEpochMs, held, expected);
        if (expected > 0 && held >= expected) {
            return online;
        }
        long stalled = nowEpochMs - Math.max(lastGrowthEpochMs, start.epochMs());
        if (stalled >= stallMillis) {
            return online + " (no more came online in " + stallMillis / 1000 + " s; the others' connects are the "
                    + "steps' failures)";
        }
        return null;
    }

    /** {@code 8,000 of 8,000 users online at +21.4 s}. */
    String online(long nowEpochMs, long held, long expected) {
        return String.format("%,d of %,d users online at %s", held, expected, start.sinceTestStart(nowEpochMs));
    }
}
