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
        TimingRun listener = TimingRun.join(0, 0, () -> { });
        TimingRun sender = TimingRun.join(30_000, 0, () -> { });
        assertThat(sender).isSameAs(listener);
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
        listener.leave();
        sender.leave();
        assertThat(sender.isFinished()).isTrue();
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
        List<String> starts = new ArrayList<>();
        TimingRun first = TimingRun.join(0, 1_000, () -> starts.add("first"));
        TimingRun second = TimingRun.join(0, 1_000, () -> starts.add("second"));
        assertThat(second).isSameAs(first);
        OutgoingMessage message = new OutgoingMessage("alice", "/app/echo", new StompHeaders(), 1,
                tracker.ids().next(), new byte[1], System.currentTimeMillis());
        tracker.register(message, 60_000, 1, records::add, false);
        first.leave(); // the other sampler's teardown never comes

        TimingRun next = TimingRun.join(0, 2_000, () -> starts.add("next"));
        assertThat(next).as("a new run").isNotSameAs(first);
        assertThat(starts).containsExactly("first", "next");
        assertThat(first.isFinished()).isTrue();
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(TimingRecord.Outcome.LOST);
            assertThat(r.detail()).isEqualTo("test-ended");
        });
        assertThat(tracker.books().sent()).as("new books").isZero();
        next.leave();
    }

    /** The teardown that never came comes after all, during the next test: the next test's run goes on. */
    @Test
    void aLateTeardownOfAnEndedRunLeavesTheNextRunAlone() {
        ReplyTracker tracker = ReplyTracker.shared();
        List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
        TimingRun old = TimingRun.join(0, 3_000, () -> { });
        TimingRun.join(0, 3_000, () -> { });
        old.leave();
        TimingRun next = TimingRun.join(0, 4_000, () -> { });
        OutgoingMessage message = new OutgoingMessage("bob", "/app/echo", new StompHeaders(), 1,
                tracker.ids().next(), new byte[1], System.currentTimeMillis());
        tracker.register(message, 60_000, 1, records::add, false);

        old.leave(); // the old test's late teardown

        assertThat(next.isFinished()).isFalse();
        assertThat(records).as("the new test's message is still pending").isEmpty();
        assertThat(tracker.books().pending()).isEqualTo(1);
        next.stop();
        next.leave();
        assertThat(next.isFinished()).isTrue();
        assertThat(records).singleElement().satisfies(r -> assertThat(r.outcome())
                .isEqualTo(TimingRecord.Outcome.LOST));
    }
}
