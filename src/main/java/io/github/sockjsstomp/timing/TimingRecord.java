package io.github.sockjsstomp.timing;

/**
 * One line of the timing log. The column order is a published format: analysis/ and users' scripts read it.
 * Columns are only ever added at the end, so a reader of the first nine still works.
 *
 * @param sentEpochMicros wall-clock time of the send, in microseconds (written as milliseconds too)
 * @param latencyMicros send to reply, monotonic clock; -1 unless ANSWERED
 * @param receiver the user that received the reply; empty unless ANSWERED
 * @param bytes payload bytes of the reply when ANSWERED, of the sent message otherwise
 * @param detail empty when ANSWERED; "timeout" or "test-ended" when LOST; the reason when FAILED
 * @param mode the sender's mode: only when it waited (await-reply, await-receipt) is the run a closed loop,
 *     where a slow answer delays later sends and coordinated omission can be corrected
 * @param senderUser the virtual user that sent it (one login may serve thousands of users)
 * @param receiverUser the virtual user that received the reply; empty unless ANSWERED
 * @param receiptMicros send to the server's RECEIPT, monotonic clock; -1 when no receipt came (or none was asked)
 * @param redeliveredAfterMicros a REDELIVERED record's time from the message's first delivery to this one,
 *     monotonic clock; -1 on every other record
 */
public record TimingRecord(
        long sentEpochMicros,
        Outcome outcome,
        String msgId,
        long latencyMicros,
        String sender,
        String receiver,
        String destination,
        long bytes,
        String detail,
        SendMode mode,
        String senderUser,
        String receiverUser,
        long receiptMicros,
        long redeliveredAfterMicros) {

    /** The first nine columns, as written by versions before mode, run, engine and version were added. */
    public static final String HEADER_V1 =
            "sent_epoch_ms,outcome,msg_id,latency_us,sender,receiver,destination,bytes,detail";
    /** The fourteen columns of versions before the virtual users were named. */
    public static final String HEADER_V2 = HEADER_V1 + ",mode,run,sent_epoch_us,engine,version";
    /** The sixteen columns of versions before receipts. */
    public static final String HEADER_V3 = HEADER_V2 + ",sender_user,receiver_user";

    /** The seventeen columns of versions before redeliveries. */
    public static final String HEADER_V4 = HEADER_V3 + ",receipt_us";

    public static final String HEADER = HEADER_V4 + ",redelivered_after_us";

    /**
     * A message's outcome, one record each (a broadcast: one ANSWERED record per reply it takes); REDELIVERED, a
     * record per delivery again of a message answered before, is beside the outcome: never an answer.
     */
    public enum Outcome {
        ANSWERED,
        LOST,
        FAILED,
        REDELIVERED
    }

    /** A record of any outcome but REDELIVERED. */
    public TimingRecord(
            long sentEpochMicros,
            Outcome outcome,
            String msgId,
            long latencyMicros,
            String sender,
            String receiver,
            String destination,
            long bytes,
            String detail,
            SendMode mode,
            String senderUser,
            String receiverUser,
            long receiptMicros) {
        this(
                sentEpochMicros,
                outcome,
                msgId,
                latencyMicros,
                sender,
                receiver,
                destination,
                bytes,
                detail,
                mode,
                senderUser,
                receiverUser,
                receiptMicros,
                -1);
    }

    /** This record as a REDELIVERED one, {@code micros} after the message's first delivery. */
    TimingRecord withRedeliveredAfter(long micros) {
        return withTrailing(receiptMicros, micros);
    }

    /** This record with the receipt's latency. */
    TimingRecord withReceipt(long micros) {
        return withTrailing(micros, redeliveredAfterMicros);
    }

    private TimingRecord withTrailing(long receipt, long redeliveredAfter) {
        return new TimingRecord(
                sentEpochMicros,
                outcome,
                msgId,
                latencyMicros,
                sender,
                receiver,
                destination,
                bytes,
                detail,
                mode,
                senderUser,
                receiverUser,
                receipt,
                redeliveredAfter);
    }

    /**
     * @param run the run's field, written as is (a number, never quoted)
     * @param engineAndVersion the last two fields with their separator, already escaped
     */
    void appendCsv(StringBuilder out, String run, String engineAndVersion) {
        out.append(sentEpochMicros / 1000).append(',').append(outcome.name()).append(',');
        appendField(out, msgId);
        out.append(',');
        if (latencyMicros >= 0) {
            out.append(latencyMicros);
        }
        out.append(',');
        appendField(out, sender);
        out.append(',');
        appendField(out, receiver);
        out.append(',');
        appendField(out, destination);
        out.append(',').append(bytes).append(',');
        appendField(out, detail);
        out.append(',')
                .append(mode.text)
                .append(',')
                .append(run)
                .append(',')
                .append(sentEpochMicros)
                .append(',')
                .append(engineAndVersion)
                .append(',');
        appendField(out, senderUser);
        out.append(',');
        appendField(out, receiverUser);
        out.append(',');
        if (receiptMicros >= 0) {
            out.append(receiptMicros);
        }
        out.append(',');
        if (redeliveredAfterMicros >= 0) {
            out.append(redeliveredAfterMicros);
        }
        out.append('\n');
    }

    /** RFC 4180: quoted only when it must be, quotes doubled. */
    static void appendField(StringBuilder out, String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        if (!needsQuotes(value)) {
            out.append(value);
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                out.append('"');
            }
            out.append(c);
        }
        out.append('"');
    }

    /** The writer thread's hottest loop: one comparison per character, as every special character is {@code <= ','}. */
    private static boolean needsQuotes(String value) {
        for (int i = 0, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            if (c <= ',' && (c == ',' || c == '"' || c == '\n' || c == '\r')) {
                return true;
            }
        }
        return false;
    }

    static String trailer(String engine, String version) {
        StringBuilder out = new StringBuilder();
        appendField(out, engine);
        out.append(',');
        appendField(out, version);
        return out.toString();
    }
}
