package io.github.sockjsstomp.timing;

/**
 * The accounts of every message sent in this JVM: {@code sent = answered + lost + failed + pending}, and
 * pending is 0 once the test has ended.
 *
 * @param answerRecords ANSWERED records written (a broadcast answered by N receivers gives N)
 * @param lateReplies replies carrying one of our ids after that message had ended (LOST or expired)
 * @param untimed messages received that carry no id of a timed message (pushes, other clients' traffic):
 *     not an error, just not part of the books
 */
public record Books(long sent, long answered, long lost, long failed, long pending, long answerRecords,
        long lateReplies, long untimed) {

    public boolean balanced() {
        return sent == answered + lost + failed + pending;
    }

    @Override
    public String toString() {
        return "sent=" + sent + " answered=" + answered + " lost=" + lost + " failed=" + failed + " pending="
                + pending + " (answer records=" + answerRecords + ", late replies=" + lateReplies + ", untimed="
                + untimed + ")" + (balanced() ? "" : " UNBALANCED");
    }
}
