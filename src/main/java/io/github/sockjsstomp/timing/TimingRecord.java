package io.github.sockjsstomp.timing;

/**
 * One line of the timing log. The column order is a published format: analysis/ and users' scripts read it.
 *
 * @param sentEpochMillis wall-clock time of the send
 * @param latencyMicros send to reply, monotonic clock; -1 unless ANSWERED
 * @param receiver the user that received the reply; empty unless ANSWERED
 * @param bytes payload bytes of the reply when ANSWERED, of the sent message otherwise
 * @param detail empty when ANSWERED; "timeout" or "test-ended" when LOST; the reason when FAILED
 */
public record TimingRecord(long sentEpochMillis, Outcome outcome, String msgId, long latencyMicros, String sender,
        String receiver, String destination, long bytes, String detail) {

    public static final String HEADER =
            "sent_epoch_ms,outcome,msg_id,latency_us,sender,receiver,destination,bytes,detail";

    public enum Outcome { ANSWERED, LOST, FAILED }

    void appendCsv(StringBuilder out) {
        out.append(sentEpochMillis).append(',').append(outcome.name()).append(',');
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
        out.append('\n');
    }

    /** RFC 4180: quoted only when it must be, quotes doubled. */
    static void appendField(StringBuilder out, String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        boolean quote = false;
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
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

    public String toCsvLine() {
        StringBuilder out = new StringBuilder(128);
        appendCsv(out);
        return out.toString();
    }
}
