package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.wiring.ReceiptListener;
import java.lang.reflect.Type;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.ConnectionLostException;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.CloseStatus;

/**
 * What Spring's STOMP session tells a virtual user, on the I/O thread that read it: RECEIPT frames and ERROR
 * frames for its listeners, transport failures for the user and its listeners. One per user, for all its
 * sessions (a reconnect opens a new one with the same handler).
 */
final class UserSessionHandler extends StompSessionHandlerAdapter implements ReceiptListener {

    private static final Logger log = LoggerFactory.getLogger(VirtualUser.class);
    private static final byte[] EMPTY = new byte[0];

    private final VirtualUser user;
    private final Listeners listeners;

    UserSessionHandler(VirtualUser user, Listeners listeners) {
        this.user = user;
        this.listeners = listeners;
    }

    @Override
    public boolean wantsReceipts() {
        return listeners.receiptsWanted();
    }

    @Override
    public void receipt(String receiptId, long receivedNanos) {
        listeners.receipt(receiptId, receivedNanos);
    }

    @Override
    public Type getPayloadType(StompHeaders headers) {
        return byte[].class;
    }

    @Override
    public void handleFrame(StompHeaders headers, Object payload) {
        // Spring hands an empty body over as null.
        String error = Failure.describeStompError(headers, (byte[]) payload);
        if (user.closing()) {
            log.debug("{} got ERROR while closing: {}", user, error);
            return;
        }
        if (user.errorFrame(error)) {
            listeners.refusal(headers, payload == null ? EMPTY : (byte[]) payload, error);
        }
        String receiptId = headers.getReceiptId();
        if (receiptId != null) {
            listeners.receiptError(receiptId, error);
        }
        listeners.stompError(error);
    }

    @Override
    public void handleException(
            StompSession stompSession,
            StompCommand command,
            StompHeaders headers,
            byte[] payload,
            Throwable exception) {
        log.warn("{} failed to handle {}: {}", user, command, exception.toString());
    }

    @Override
    public void handleTransportError(StompSession stompSession, Throwable exception) {
        log.debug("{} transport error: {}", user, exception.toString());
        SessionLoss cause = SessionLoss.of(exception, user.closedWith(), user.closing());
        if (cause == SessionLoss.CLOSED_BY_US) {
            return;
        }
        listeners.connectionLost(user.transportLost(stompSession, describeLoss(exception, cause), cause));
    }

    private String describeLoss(Throwable exception, SessionLoss cause) {
        if (cause == SessionLoss.MISSED_HEARTBEATS) {
            return "Missed heart-beats: " + exception.getMessage();
        }
        CloseStatus status = user.closedWith();
        if (exception instanceof ConnectionLostException && status != null) {
            String reason = status.getReason();
            return "Connection closed with status " + status.getCode()
                    + (reason == null || reason.isBlank() ? "" : " (" + reason + ")");
        }
        return Failure.describe(exception);
    }
}
