package io.github.sockjsstomp.timing;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a sender waits for before its next send, and what answers its message. The text is the send sampler's
 * {@code mode} and the timing log's {@code mode} column.
 */
public enum SendMode {

    /** An open loop: the sample is the send; the reply's latency goes to the timing log. */
    FIRE_AND_FORGET("fire-and-forget"),
    /** A closed loop: the sample waits for the first correlated reply. */
    AWAIT_REPLY("await-reply"),
    /**
     * A closed loop on the server's RECEIPT, for apps that answer nothing: the receipt answers the message, and
     * replies carrying its id are extra copies.
     */
    AWAIT_RECEIPT("await-receipt");

    public final String text;

    SendMode(String text) {
        this.text = text;
    }

    /** Whether the sender waits for its message's answer (a reply, or the receipt). */
    public boolean awaits() {
        return this != FIRE_AND_FORGET;
    }

    public boolean answeredByReceipt() {
        return this == AWAIT_RECEIPT;
    }

    /** @throws IllegalArgumentException naming the values allowed */
    public static SendMode of(String text) {
        String trimmed = text.trim();
        for (SendMode mode : values()) {
            if (mode.text.equals(trimmed)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("expected " + allowedValues());
    }

    public static String allowedValues() {
        return Arrays.stream(values()).map(m -> m.text).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return text;
    }
}
