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
 * @param redeliveries messages answered before and delivered again (after a NACK, a session lost with them
 *     unacknowledged; marked {@code redelivered:true}, or the same receiver getting it again on the same destination): beside the
 *     books, never a second answer
 * @param redeliveryMaxMicros the longest time from a message's first delivery to its delivery again (0 if none)
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
        long lateReceipts,
        long redeliveries,
        long redeliveryMaxMicros) {

    /** Books built count by count, by name; a count not set is 0. */
    public static Builder builder() {
        return new Builder();
    }

    public boolean balanced() {
        return sent == answered + lost + failed + pending;
    }

    @Override
    public String toString() {
        return "sent=" + sent + " answered=" + answered + " lost=" + lost + " failed=" + failed + " pending="
                + pending + " (answer records=" + answerRecords + ", extra copies=" + extraReplies + ", late replies="
                + lateReplies + (lateMaxMicros == 0 ? "" : " up to " + lateMaxMicros / 1000 + " ms after their send")
                + ", untimed=" + untimed + redeliveryBooks() + ")" + (balanced() ? "" : " UNBALANCED") + receiptBooks();
    }

    /** Empty when nothing came again, so that those books read as before. */
    private String redeliveryBooks() {
        if (redeliveries == 0) {
            return "";
        }
        return ", redeliveries=" + redeliveries
                + (redeliveryMaxMicros == 0
                        ? ""
                        : " up to " + redeliveryMaxMicros / 1000 + " ms after the first delivery");
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

    /** Names every count, so that no caller lines up sixteen numbers. */
    public static final class Builder {
        private long sent;
        private long answered;
        private long lost;
        private long failed;
        private long pending;
        private long answerRecords;
        private long extraReplies;
        private long lateReplies;
        private long lateMaxMicros;
        private long untimed;
        private long receiptsAsked;
        private long receipts;
        private long noReceipts;
        private long lateReceipts;
        private long redeliveries;
        private long redeliveryMaxMicros;

        public Builder sent(long sent) {
            this.sent = sent;
            return this;
        }

        public Builder answered(long answered) {
            this.answered = answered;
            return this;
        }

        public Builder lost(long lost) {
            this.lost = lost;
            return this;
        }

        public Builder failed(long failed) {
            this.failed = failed;
            return this;
        }

        public Builder pending(long pending) {
            this.pending = pending;
            return this;
        }

        public Builder answerRecords(long answerRecords) {
            this.answerRecords = answerRecords;
            return this;
        }

        public Builder extraReplies(long extraReplies) {
            this.extraReplies = extraReplies;
            return this;
        }

        public Builder lateReplies(long lateReplies) {
            this.lateReplies = lateReplies;
            return this;
        }

        public Builder lateMaxMicros(long lateMaxMicros) {
            this.lateMaxMicros = lateMaxMicros;
            return this;
        }

        public Builder untimed(long untimed) {
            this.untimed = untimed;
            return this;
        }

        public Builder receiptsAsked(long receiptsAsked) {
            this.receiptsAsked = receiptsAsked;
            return this;
        }

        public Builder receipts(long receipts) {
            this.receipts = receipts;
            return this;
        }

        public Builder noReceipts(long noReceipts) {
            this.noReceipts = noReceipts;
            return this;
        }

        public Builder lateReceipts(long lateReceipts) {
            this.lateReceipts = lateReceipts;
            return this;
        }

        public Builder redeliveries(long redeliveries) {
            this.redeliveries = redeliveries;
            return this;
        }

        public Builder redeliveryMaxMicros(long redeliveryMaxMicros) {
            this.redeliveryMaxMicros = redeliveryMaxMicros;
            return this;
        }

        public Books build() {
            return new Books(
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
                    receiptsAsked,
                    receipts,
                    noReceipts,
                    lateReceipts,
                    redeliveries,
                    redeliveryMaxMicros);
        }
    }
}
