package io.github.sockjsstomp.steps;

import java.util.Locale;

/**
 * What a step changes: the engine's message rate, the users holding a session on it (or looping), or the time its
 * consumers take over each message. Every kind offers more as it grows: more messages, more users, slower consumers.
 */
public enum StepKind {
    /** Messages per SECOND this engine offers. */
    RATE("rate", "rate", "msg/s"),
    /** Virtual users this engine holds online. */
    USERS("users", "users", "users"),
    /**
     * Virtual users of this engine's closed loops that loop (the others stay connected, idle): a closed loop's
     * offered load is its users. The steps log calls them users (its offer is users, its users those online).
     */
    LOOPING("looping", "users", "users"),
    /**
     * Milliseconds each acknowledging subscription's consumer takes over a message before its ACK ({@code
     * consumeMillis}, stepped): the producers keep their rate, and a slower consumer is the harder offer (the broker
     * holds more unacknowledged, then queues). From 0: consumers that take no time.
     */
    CONSUME("consume", "consume", "ms per message");

    /** As the steps sampler's {@code stepKind} reads it. */
    public final String parameter;
    /** As the steps log writes it. */
    public final String text;
    /** The unit of {@code offered}, as the answer line says it. */
    public final String unit;

    StepKind(String parameter, String text, String unit) {
        this.parameter = parameter;
        this.text = text;
        this.unit = unit;
    }

    public static StepKind of(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        for (StepKind kind : values()) {
            if (kind.parameter.equals(trimmed)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("expected rate, users, looping or consume");
    }

    /** Whether its offers are whole (users). */
    public boolean whole() {
        return this == USERS || this == LOOPING;
    }

    /** Whether a step may offer 0: a consumer that takes no time is a load; no messages or no users is none. */
    public boolean fromZero() {
        return this == CONSUME;
    }

    /** Whether its steps send messages at a rate, so a step's achieved figure is answered messages per second. */
    public boolean sendsAtARate() {
        return this == RATE || this == CONSUME;
    }
}
