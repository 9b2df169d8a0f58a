package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.message.IncomingMessage;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * What a virtual user's session delivers ({@link VirtualUser#addListener}), on I/O (or heart-beat) threads:
 * never block here. A listener that throws is logged and the others still run.
 */
public interface UserListener {

    /**
     * Whether this listener wants {@link #onReceipt}: asked once, when it is added. Until a listener wants them, the
     * user's sessions do not look for RECEIPT frames.
     */
    default boolean wantsReceipts() {
        return false;
    }

    /** A MESSAGE on any subscription of the user. */
    default void onMessage(IncomingMessage message) {}

    /**
     * A RECEIPT frame, as soon as it was read.
     *
     * @param receivedNanos {@link System#nanoTime()} on arrival, before any listener ran
     */
    default void onReceipt(String receiptId, long receivedNanos) {}

    /**
     * An ERROR frame on an open session: the server refused a frame of ours (a SEND to a destination it does not
     * know, a SUBSCRIBE it forbids) and, as RabbitMQ does, may keep the session open. Heard first of the events
     * of that frame ({@link #onReceiptError}, {@link #onStompError}); not heard for an ERROR answering CONNECT.
     *
     * @param headers the frame's headers ({@code message}, {@code receipt-id}, whatever the server added)
     * @param body the frame's body; empty when it had none
     * @param errorText the server's words, as {@link Failure#describeStompError} gives them
     */
    default void onRefusal(StompHeaders headers, byte[] body, String errorText) {}

    /**
     * An ERROR frame that names a receipt (its {@code receipt-id}): the server refused that frame. Heard before
     * {@link #onStompError} for the same frame.
     */
    default void onReceiptError(String receiptId, String error) {}

    /** An ERROR frame (not the one answering our own DISCONNECT). */
    default void onStompError(String error) {}

    /**
     * The session is lost (closed by the server or the network, heart-beats that stopped, a frame that
     * cannot be decoded), not when we close it.
     */
    default void onConnectionLost(String reason) {}
}
