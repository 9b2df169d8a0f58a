package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.IncomingMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A message's RECEIPT: still to come, come (its latency) or not come. A record of the message finished before
 * the receipt is settled (a reply that overtook the RECEIPT: brokers route before they acknowledge) waits here,
 * so that every record of the message carries the receipt's latency when there was one; settling hands the
 * waiting records back, stamped. Exists only for messages sent with a receipt header.
 */
final class MessageReceipt {

    /** The subscription of a receipt that answers a message (await-receipt). */
    static final String SUBSCRIPTION = "(receipt)";

    private static final StompHeaders NO_HEADERS = StompHeaders.readOnlyStompHeaders(Map.of());
    private static final byte[] NO_BODY = new byte[0];
    private static final long PENDING = -1;
    /** Settled without a receipt: none came within the timeout, the message failed, or the test ended. */
    static final long NONE = -2;

    /** Guarded by this, as is {@link #held}. */
    private long micros = PENDING;
    /** Allocated only when a record comes before the receipt. */
    private List<TimingRecord> held;

    /** A RECEIPT that answers its message (await-receipt): a reply without a body, to its sender. */
    static IncomingMessage asReply(UserSettings receiver, long receivedNanos) {
        return new IncomingMessage(receiver, SUBSCRIPTION, NO_HEADERS, NO_BODY, receivedNanos);
    }

    /** The record to write now (stamped with the receipt's latency, if one came), or null: it waits. */
    synchronized TimingRecord stampOrHold(TimingRecord record) {
        if (micros == PENDING) {
            if (held == null) {
                held = new ArrayList<>(1);
            }
            held.add(record);
            return null;
        }
        return micros >= 0 ? record.withReceipt(micros) : record;
    }

    /**
     * Settles the receipt: {@code receiptMicros} after the send, or {@link #NONE}.
     *
     * @return the records that waited, to write now (stamped when a receipt came); null if it was settled already
     */
    synchronized List<TimingRecord> settle(long receiptMicros) {
        if (micros != PENDING) {
            return null;
        }
        micros = receiptMicros;
        List<TimingRecord> waiting = held;
        held = null;
        if (waiting == null) {
            return List.of();
        }
        if (receiptMicros >= 0) {
            waiting.replaceAll(r -> r.withReceipt(receiptMicros));
        }
        return waiting;
    }

    @Override
    public synchronized String toString() {
        return "MessageReceipt[" + (micros == PENDING ? "pending" : micros == NONE ? "none" : micros + " us")
                + (held == null ? "" : ", " + held.size() + " records waiting") + "]";
    }
}
