package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.messaging.simp.stomp.StompHeaders;

class ReplySummaryTest {

    private final MessageIds ids = new MessageIds("msum000-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private MessageTiming send() {
        var message = TestMessages.outgoing("alice", ids.next());
        return TestMessages.register(tracker, message, TestMessages.options(60_000, 1, false), r -> {});
    }

    private void answer(MessageTiming sent) {
        tracker.reply(sent.msgId(), TestMessages.incoming("alice", 1));
    }

    @Test
    void eachIntervalHasALineForItselfAndOneForTheRunSoFar() {
        ReplySummary summary = tracker.summarizeEvery(3600, lines::add);
        answer(send());
        answer(send());
        tracker.fail(send(), "SendFailed");
        summary.report();
        answer(send());
        send();
        tracker.endSummary();

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0))
                .startsWith("stomp replies +         3 sent in")
                .contains("answered 2, lost 0, failed 1, pending 0; reply ms p50");
        assertThat(lines.get(1)).startsWith("stomp replies =         3 sent");
        assertThat(lines.get(2))
                .startsWith("stomp replies +         2 sent")
                .contains("answered 1, lost 0, failed 0, " + "pending 1;");
        assertThat(lines.get(3))
                .startsWith("stomp replies =         5 sent")
                .contains("answered 3, lost 0, failed 1, " + "pending 1;");
    }

    @Test
    void anIntervalWithoutRepliesSaysSo() {
        tracker.summarizeEvery(3600, lines::add);
        send();
        tracker.endSummary();
        assertThat(lines.get(0)).endsWith("pending 1; no replies");
    }

    /** A run that has sent nothing (the connect test, senders not started yet) prints no lines of zeros. */
    @Test
    void nothingSentSaysNothingUntilTheFirstSend() {
        ReplySummary summary = tracker.summarizeEvery(3600, lines::add);
        summary.report();
        assertThat(lines).isEmpty();
        answer(send());
        tracker.endSummary();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("stomp replies +         1 sent").contains("answered 1");
        assertThat(lines.get(1)).startsWith("stomp replies =         1 sent");
    }

    /**
     * The run's end writes the acknowledgements' line itself, after its sessions closed: the summary's last report
     * leaves it out, or a run's end showed it twice.
     */
    @Test
    void theThirdLineComesWithEveryIntervalButNotWithTheLastReport() {
        tracker.summarizeAlso(() -> "stomp acks: delivered=1");
        ReplySummary summary = tracker.summarizeEvery(3600, lines::add);
        answer(send());
        summary.report();
        tracker.endSummary();

        assertThat(lines).hasSize(5);
        assertThat(lines.get(2)).isEqualTo("stomp acks: delivered=1");
        assertThat(lines.subList(3, 5)).allSatisfy(line -> assertThat(line).startsWith("stomp replies "));
    }

    /**
     * Replies that came after their message was LOST: the server fell behind, or, in a run whose consumers acknowledge
     * (its third line), those consumers may have: a slow one with a prefetch keeps the rest at the broker.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void lateRepliesBlameTheConsumersTooWhereConsumersAcknowledge(boolean acknowledging) {
        if (acknowledging) {
            tracker.summarizeAlso(() -> "stomp acks: delivered=1");
        }
        tracker.summarizeEvery(3600, lines::add);
        var message = TestMessages.outgoing("alice", ids.next());
        MessageTiming sent = TestMessages.register(tracker, message, TestMessages.options(1, 1, false), r -> {});
        long late = sent.sentNanos + TimeUnit.SECONDS.toNanos(2);
        tracker.expire(late);
        tracker.reply(sent.msgId(), TestMessages.incoming("alice", new StompHeaders(), new byte[1], late));
        tracker.endSummary();

        assertThat(lines.get(1))
                .contains("lost 1 (1 replies came after their message was LOST, up to 2.0 s after the send: "
                        + (acknowledging ? "the consumers or the server fell behind)" : "the server fell behind)"));
    }
}
