package io.github.sockjsstomp.timing;

/**
 * The accounts of every message sent in this JVM: {@code sent = answered + lost + failed + pending}, and
 * pending is 0 once the test has ended.
 *
 * @param answerRecords ANSWERED records written (a broadcast answered by N receivers gives N)
 * @param lateReplies replies carrying one of our ids after that message had ended (LOST or expired)
 * @param unmatched messages received in which no id could be found (pushes, other clients' traffic)
 */
public record Books(long sent, long answered, long lost, long failed, long pending, long answerRecords,
        long lateReplies, long unmatched) {

    public boolean balanced() {
        return sent == answered + lost + failed + pending;
    }

    @Override
    public String toString() {
        return "sent=" + sent + " answered=" + answered + " lost=" + lost + " failed=" + failed + " pending="
                + pending + " (answer records=" + answerRecords + ", late replies=" + lateReplies + ", unmatched="
                + unmatched + ")" + (balanced() ? "" : " UNBALANCED");
    }
}
