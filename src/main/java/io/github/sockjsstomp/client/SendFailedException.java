package io.github.sockjsstomp.client;

/** A SEND that did not leave: the session is gone or the write failed. */
public final class SendFailedException extends Exception {

    private final OutgoingMessage outgoing;

    public SendFailedException(String message, OutgoingMessage outgoing, Throwable cause) {
        super(message, cause);
        this.outgoing = outgoing;
    }

    /** The message as it was built, or null when it failed before being built. */
    public OutgoingMessage outgoing() {
        return outgoing;
    }
}
