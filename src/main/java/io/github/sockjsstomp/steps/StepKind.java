package io.github.sockjsstomp.steps;

import java.util.Locale;

/** What a step changes: the engine's message rate, or the users holding a session on it. */
public enum StepKind {
    /** Messages per SECOND this engine offers. */
    RATE("rate", "msg/s"),
    /** Virtual users this engine holds online. */
    USERS("users", "users");

    /** As the steps log writes it. */
    public final String text;
    /** The unit of {@code offered}, as the answer line says it. */
    public final String unit;

    StepKind(String text, String unit) {
        this.text = text;
        this.unit = unit;
    }

    public static StepKind of(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        for (StepKind kind : values()) {
            if (kind.text.equals(trimmed)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("expected rate or users");
    }
}
