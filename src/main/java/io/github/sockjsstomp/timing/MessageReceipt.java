package io.github.sockjsstomp.timing;

import java.util.ArrayList;
import java.util.List;

/**
 * A message's RECEIPT: still to come, come (its latency) or not come. A record of the message finished before
 * the receipt is settled (a reply that overtook the RECEIPT: brokers route before they acknowledge) waits here,
 * so that every record of the message carries the receipt's latency when there was one; settling hands the
 * waiting records back, stamped. Exists only for messages sent with a receipt header.
 */
final class MessageReceipt {

    private static final long PENDING = -1;
    /** Settled without a receipt: none came within the timeout, the message failed, or the test ended. */
    static final long NONE = -2;

    /** Guarded by this, as is {@link #held}. */
    private long micros = PENDING;
    /** Allocated only when a record comes before the receipt. */
    private List<TimingRecord> held;

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
