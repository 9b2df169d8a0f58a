package io.github.sockjsstomp.steps;

import java.util.Locale;

/** What a step changes: the engine's message rate, or the users holding a session on it. */
public enum StepKind {
    /** Messages per SECOND this engine offers. */
    RATE("rate", "rate", "msg/s"),
    /** Virtual users this engine holds online. */
    USERS("users", "users", "users"),
    /**
     * Virtual users of this engine's closed loops that loop (the others stay connected, idle): a closed loop's
     * offered load is its users. The steps log calls them users (its offer is users, its users those online).
     */
    LOOPING("looping", "users", "users");

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
        throw new IllegalArgumentException("expected rate, users or looping");
    }

    /** Whether its offers are whole (users). */
    public boolean whole() {
        return this != RATE;
    }
}
