package io.github.sockjsstomp.client.wiring;

import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * SEND headers that carry a {@code receipt} header which Spring's session does not track.
 *
 * <p>Why: {@code DefaultStompSession.send} (spring-messaging 6.2) reads the receipt through {@link #getReceipt()}
 * and, when there is one, registers a handler and schedules a "receipt lost" task on the session's
 * TaskScheduler for every message: two locked operations on the heart-beat scheduler's queue, five objects,
 * per SEND. And it hands the RECEIPT to that handler only, so the time the frame arrived is not seen; a task
 * added after {@code send} returns may even run after the receipt came, timing the wrong thing. The header
 * still goes on the wire (Spring copies every native header into the frame); {@link ReceiptingStompClient}'s
 * sessions tell the user's listeners when each RECEIPT arrives, on the I/O thread that read it, and the
 * run's tracker matches it and decides when it is too late, with the deadline it keeps anyway for replies.
 */
public final class ReceiptHeaders extends StompHeaders {

    private static final long serialVersionUID = 1L;

    /** Headers whose {@code receipt} is {@code receiptId}. */
    public ReceiptHeaders(String receiptId) {
        set(RECEIPT, receiptId);
    }

    /** Null, so that Spring registers nothing for it; the header itself is {@code getFirst(RECEIPT)}. */
    @Override
    public String getReceipt() {
        return null;
    }
}
