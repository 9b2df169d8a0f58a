package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.OutgoingMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;

class TimingRunTest {

    /**
     * JMeter tears samplers down in no particular order: a listener (no drain of its own) going first must
     * not cut short the wait for a sender's reply in flight.
     */
    @Test
    void theDrainLastsAsLongAsTheLongestSendersWhoeverTearsDownFirst() throws Exception {
        ReplyTracker tracker = ReplyTracker.shared();
        List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
        TimingRun.enter(0);
        TimingRun.enter(30_000);
        OutgoingMessage message = new OutgoingMessage("alice", "/app/echo", new StompHeaders(), 1,
                tracker.ids().next(), new byte[1], System.currentTimeMillis());
        PendingMessage pending = tracker.register(message, 60_000, 1, records::add, false);
        Thread replier = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            tracker.reply(pending.msgId(), new IncomingMessage("alice", "/user/queue/echo", new StompHeaders(),
                    new byte[1], System.nanoTime()));
        });
        replier.start();
        TimingRun.exit();
        TimingRun.exit();
        replier.join();
        assertThat(records).singleElement().satisfies(r -> assertThat(r.outcome())
                .isEqualTo(TimingRecord.Outcome.ANSWERED));
        assertThat(tracker.books().lost()).isZero();
    }

    /**
     * The GUI and remote engines run many tests in one JVM: a test whose teardowns did not all come must not
     * leave its books and logs open, nor its messages in the next test's books.
     */
    @Test
    void aNewTestEndsARunItsPredecessorLeftOpen() {
        ReplyTracker tracker = ReplyTracker.shared();
        List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
        assertThat(TimingRun.enter(0, 1_000)).isTrue();
        assertThat(TimingRun.enter(0, 1_000)).isFalse();
        OutgoingMessage message = new OutgoingMessage("alice", "/app/echo", new StompHeaders(), 1,
                tracker.ids().next(), new byte[1], System.currentTimeMillis());
        tracker.register(message, 60_000, 1, records::add, false);
        TimingRun.exit(); // the other sampler's teardown never comes

        assertThat(TimingRun.enter(0, 2_000)).as("a new run").isTrue();
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(TimingRecord.Outcome.LOST);
            assertThat(r.detail()).isEqualTo("test-ended");
        });
        assertThat(tracker.books().sent()).as("new books").isZero();
        TimingRun.exit();
    }
}
