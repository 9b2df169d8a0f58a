package io.github.sockjsstomp.client.wiring;

/**
 * Hears the RECEIPT frames of a session, when the session's handler implements it (see
 * {@link ReceiptingStompClient}). Called on the I/O thread that read the frame: never block.
 */
public interface ReceiptListener {

    /** Whether anyone asked for receipts: until then frames are not even looked at (read per frame). */
    boolean wantsReceipts();

    /** @param receivedNanos {@link System#nanoTime()} when the frame was handed over, before anything ran */
    void receipt(String receiptId, long receivedNanos);
}
