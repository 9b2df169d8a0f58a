package io.github.sockjsstomp.client.message;

/**
 * STOMP's acknowledgement modes, as a SUBSCRIBE's {@code ack} header writes them. With {@link #AUTO} the broker
 * counts a message consumed once it is sent; with the other two it keeps each message until an ACK (or NACK)
 * names it, and stops delivering once its prefetch (RabbitMQ's {@code prefetch-count}, Artemis'
 * {@code consumer-window-size}) is unacknowledged.
 */
public enum AckMode {
    /** STOMP's default: nothing is acknowledged. */
    AUTO("auto"),
    /** Cumulative: an ACK acknowledges its message and every earlier one of the subscription. */
    CLIENT("client"),
    /** Each message acknowledged on its own. */
    CLIENT_INDIVIDUAL("client-individual");

    private final String header;

    AckMode(String header) {
        this.header = header;
    }

    /** The value of the SUBSCRIBE's {@code ack} header. */
    public String header() {
        return header;
    }

    /**
     * @throws IllegalArgumentException quoting a value that is none of {@code auto}, {@code client},
     *     {@code client-individual}
     */
    public static AckMode parse(String text) {
        String value = text.trim();
        for (AckMode mode : values()) {
            if (mode.header.equals(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(
                "'" + text + "' is no STOMP acknowledgement mode; expected auto, client or client-individual");
    }

    @Override
    public String toString() {
        return header;
    }
}
