package io.github.sockjsstomp.client.user;

/** A SEND that did not leave: the session is gone or the write failed. */
public final class SendFailedException extends Exception {

    public SendFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
