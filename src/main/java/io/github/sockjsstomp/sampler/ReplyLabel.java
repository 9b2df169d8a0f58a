package io.github.sockjsstomp.sampler;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which label a reply row goes under. JMeter's listeners (the dashboard, the Aggregate Report, a Backend Listener)
 * make a row and a series per label: one per destination as the plan writes it keeps them to a handful whatever the
 * number of users, where one per destination as sent makes one per user when each has a queue of its own.
 */
enum ReplyLabel {
    /** {@code reply /queue/d.{{userNumber}}}: the destination as the plan writes it. */
    DESTINATION("destination"),
    /** {@code reply /queue/d.17}: the destination as sent, a label per queue. */
    SENT("sent"),
    /** {@code reply}: every message under one label. */
    ONE("one");

    /** What every reply row's label begins with, whichever way it names the destination. */
    private static final String PREFIX = "reply ";

    final String text;

    ReplyLabel(String text) {
        this.text = text;
    }

    static ReplyLabel of(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(label -> label.text.equals(trimmed))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("expected " + allowedValues()));
    }

    static String allowedValues() {
        return Arrays.stream(values()).map(label -> label.text).collect(Collectors.joining(", ", "", ""));
    }

    String of(String destinationAsWritten, String destinationSent) {
        return switch (this) {
            case DESTINATION -> PREFIX + destinationAsWritten;
            case SENT -> PREFIX + destinationSent;
            case ONE -> PREFIX.trim();
        };
    }
}
