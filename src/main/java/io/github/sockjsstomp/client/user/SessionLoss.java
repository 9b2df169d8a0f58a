package io.github.sockjsstomp.client.user;

import org.springframework.messaging.simp.stomp.ConnectionLostException;
import org.springframework.web.socket.CloseStatus;

/**
 * Why a virtual user's session was lost, as the user learns it: the server's heart-beats stopped arriving (the
 * connection may still be open: a hung server, a half-dead network), the transport failed (a reset, a frame that
 * cannot be decoded, a close without a close frame), the server closed it with a close frame of its own, or we
 * closed it. A connection service level counts the first apart: it is the loss a server's clients see when it
 * is too busy to heart-beat.
 */
public enum SessionLoss {
    MISSED_HEARTBEATS("missed heart-beats"),
    TRANSPORT_ERROR("a transport error"),
    SERVER_CLOSED("the server's close"),
    CLOSED_BY_US("our own close");

    /**
     * Spring's STOMP session says a read inactivity (no frame, heart-beats included, for three of the server's
     * heart-beat periods) with a {@link ConnectionLostException} whose message begins so; nothing else tells it.
     */
    static final String READ_INACTIVITY = "Read inactivity";

    /** WebSocket's 1006: the connection ended without a close frame (RFC 6455), which is no close by the server. */
    private static final int NO_CLOSE_FRAME = CloseStatus.NO_CLOSE_FRAME.getCode();

    public final String description;

    /**
     * Told of each lost session once, on the I/O or heart-beat thread that learnt it, and once more if what it
     * learnt next says the loss was missed heart-beats after all: Spring's read inactivity closes the connection
     * first, and the close, interrupted, is reported as a transport error just before the inactivity is.
     */
    public interface Listener {
        /**
         * A session was lost at {@code epochMs} for {@code cause}; {@code replaces} is the cause told before for the
         * same loss (null: none, this is the first telling).
         */
        void sessionLost(SessionLoss cause, long epochMs, SessionLoss replaces);
    }

    SessionLoss(String description) {
        this.description = description;
    }

    /**
     * The loss Spring reported with {@code exception}, the WebSocket having closed with {@code status} (null:
     * unknown, or not closed yet), {@code closing} when our own DISCONNECT or close was under way.
     */
    static SessionLoss of(Throwable exception, CloseStatus status, boolean closing) {
        if (closing) {
            return CLOSED_BY_US;
        }
        if (exception instanceof ConnectionLostException lost) {
            String message = lost.getMessage();
            if (message != null && message.startsWith(READ_INACTIVITY)) {
                return MISSED_HEARTBEATS;
            }
            if (status != null && status.getCode() != NO_CLOSE_FRAME) {
                return SERVER_CLOSED;
            }
        }
        return TRANSPORT_ERROR;
    }
}
