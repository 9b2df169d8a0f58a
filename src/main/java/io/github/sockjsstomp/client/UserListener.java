package io.github.sockjsstomp.client;

/**
 * What a virtual user's session delivers ({@link VirtualUser#addListener}), on I/O (or heart-beat) threads:
 * never block here. A listener that throws is logged and the others still run.
 */
public interface UserListener {

    /** A MESSAGE on any subscription of the user. */
    default void onMessage(IncomingMessage message) {
    }

    /** An ERROR frame (not the one answering our own DISCONNECT). */
    default void onStompError(String error) {
    }

    /**
     * The session is lost (closed by the server or the network, heart-beats that stopped, a frame that
     * cannot be decoded), not when we close it.
     */
    default void onConnectionLost(String reason) {
    }
}
