package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.timing.TimingRecord.Outcome;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ExpirySweeperTest {

    private final MessageIds ids = new MessageIds("msweep0-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final List<TimingRecord> records = new CopyOnWriteArrayList<>();

    /** No one but the sweeper calls expire: the LOST record is its doing. */
    @Test
    void anUnansweredMessageIsLostAtItsDeadlineWithoutAnyoneAsking() throws InterruptedException {
        MessageTiming sent = TestMessages.register(
                tracker, TestMessages.outgoing("alice", ids.next()), TestMessages.options(1, 1, false), records::add);
        try (ExpirySweeper sweeper = ExpirySweeper.start(tracker)) {
            for (int i = 0; i < 600 && records.isEmpty(); i++) {
                Thread.sleep(50);
            }
        }
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.msgId()).isEqualTo(sent.msgId());
            assertThat(r.outcome()).isEqualTo(Outcome.LOST);
            assertThat(r.detail()).isEqualTo("timeout");
        });
        assertThat(tracker.books().lost()).isEqualTo(1);
    }
}
