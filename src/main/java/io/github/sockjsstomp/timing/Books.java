package io.github.sockjsstomp.timing;

/**
 * The accounts of every message sent in this JVM: {@code sent = answered + lost + failed + pending}, and
 * pending is 0 once the test has ended.
 *
 * @param answerRecords ANSWERED records written (a broadcast answered by N receivers gives N)
 * @param extraReplies copies beyond the replies a message expects ({@code repliesPerMessage}): a broadcast
 *     that every subscriber sees, with one reply expected. Not an error; not late
 * @param lateReplies replies carrying one of our ids after that message was declared LOST (its
 *     {@code replyTimeoutMillis} passed): the server fell behind, it did not lose them
 * @param lateMaxMicros the longest send-to-reply time among the late replies, in microseconds (0 if none, or none
 *     could be measured: a reply that comes after {@code RecentlyLost.SLOTS} more messages were LOST)
 * @param untimed messages received that carry no id of a timed message (pushes, other clients' traffic):
 *     not an error, just not part of the books
 * @param receiptsAsked messages sent with a receipt header ({@code receipts=true}, await-receipt)
 * @param receipts of those, the ones whose RECEIPT came within {@code replyTimeoutMillis}
 * @param noReceipts the ones whose RECEIPT did not: none came in time, the send failed, the server refused it
 *     (an ERROR naming it), or the test ended first
 * @param lateReceipts RECEIPTs that came after their message's deadline or failure (among {@code noReceipts})
 */
public record Books(
        long sent,
        long answered,
        long lost,
        long failed,
        long pending,
        long answerRecords,
        long extraReplies,
        long lateReplies,
        long lateMaxMicros,
        long untimed,
        long receiptsAsked,
        long receipts,
        long noReceipts,
        long lateReceipts) {

    /** The books of a run that asked for no receipt. */
    public Books(
            long sent,
            long answered,
            long lost,
            long failed,
            long pending,
            long answerRecords,
            long extraReplies,
            long lateReplies,
            long lateMaxMicros,
            long untimed) {
        this(
                sent,
                answered,
                lost,
                failed,
                pending,
                answerRecords,
                extraReplies,
                lateReplies,
                lateMaxMicros,
                untimed,
                0,
                0,
                0,
                0);
    }

    public boolean balanced() {
        return sent == answered + lost + failed + pending;
    }

    @Override
    public String toString() {
        return "sent=" + sent + " answered=" + answered + " lost=" + lost + " failed=" + failed + " pending="
                + pending + " (answer records=" + answerRecords + ", extra copies=" + extraReplies + ", late replies="
                + lateReplies + (lateMaxMicros == 0 ? "" : " up to " + lateMaxMicros / 1000 + " ms after their send")
                + ", untimed=" + untimed + ")" + (balanced() ? "" : " UNBALANCED") + receiptBooks();
    }

    /** Empty when no receipt was asked for, so that those books read as before. */
    private String receiptBooks() {
        if (receiptsAsked == 0) {
            return "";
        }
        long pendingReceipts = receiptsAsked - receipts - noReceipts;
        return " receipts=" + receipts + " no-receipt=" + noReceipts
                + (pendingReceipts == 0 ? "" : " receipts-pending=" + pendingReceipts)
                + (lateReceipts == 0 ? "" : " (late receipts=" + lateReceipts + ")");
    }
}
