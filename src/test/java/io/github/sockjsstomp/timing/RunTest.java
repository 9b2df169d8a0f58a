package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunTest {

    /**
     * JMeter tears samplers down in no particular order: a listener (no drain of its own) going first must
     * not cut short the wait for a sender's reply in flight.
     */
    @Test
    void theDrainLastsAsLongAsTheLongestSendersWhoeverTearsDownFirst() throws Exception {
        List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
        Run listener = Run.join(0, 0, r -> {});
        Run sender = Run.join(30_000, 0, r -> {});
        assertThat(sender).isSameAs(listener);
        ReplyTracker tracker = sender.tracker();
        var message = TestMessages.outgoing("alice", tracker.ids().next());
        MessageTiming pending =
                TestMessages.register(tracker, message, TestMessages.options(60_000, 1, false), records::add);
        Thread replier = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            tracker.reply(pending.msgId(), TestMessages.incoming("alice", 1));
        });
        replier.start();
        listener.leave();
        sender.leave();
        replier.join();
        assertThat(Run.join(0, 0, r -> {}))
                .as("the last leave ended it: a new run")
                .isNotSameAs(sender)
                .satisfies(Run::leave);
        assertThat(records)
                .singleElement()
                .satisfies(r -> assertThat(r.outcome()).isEqualTo(TimingRecord.Outcome.ANSWERED));
        assertThat(tracker.books().lost()).isZero();
    }

    /**
     * The GUI and remote engines run many tests in one JVM: a test whose teardowns did not all come must not
     * leave its books and logs open, nor its messages in the next test's books.
     */
    @Test
    void aNewTestEndsARunItsPredecessorLeftOpen() {
        List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
        List<String> starts = new ArrayList<>();
        Run first = Run.join(0, 1_000, r -> starts.add("first"));
        Run second = Run.join(0, 1_000, r -> starts.add("second"));
        assertThat(second).isSameAs(first);
        ReplyTracker tracker = first.tracker();
        var message = TestMessages.outgoing("alice", tracker.ids().next());
        TestMessages.register(tracker, message, TestMessages.options(60_000, 1, false), records::add);
        first.leave(); // the other sampler's teardown never comes

        Run next = Run.join(0, 2_000, r -> starts.add("next"));
        assertThat(next).as("a new run").isNotSameAs(first);
        assertThat(starts).containsExactly("first", "next");
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(TimingRecord.Outcome.LOST);
            assertThat(r.detail()).isEqualTo("test-ended");
        });
        assertThat(next.books().sent()).as("new books").isZero();
        assertThat(first.books().lost())
                .as("the old run's books keep its message")
                .isEqualTo(1);
        next.leave();
    }

    /** The teardown that never came comes after all, during the next test: the next test's run goes on. */
    @Test
    void aLateTeardownOfAnEndedRunLeavesTheNextRunAlone() {
        List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
        Run old = Run.join(0, 3_000, r -> {});
        Run.join(0, 3_000, r -> {});
        old.leave();
        Run next = Run.join(0, 4_000, r -> {});
        ReplyTracker tracker = next.tracker();
        var message = TestMessages.outgoing("bob", tracker.ids().next());
        TestMessages.register(tracker, message, TestMessages.options(60_000, 1, false), records::add);

        old.leave(); // the old test's late teardown

        assertThat(records).as("the new test's message is still pending").isEmpty();
        assertThat(tracker.books().pending()).isEqualTo(1);
        next.stop();
        next.leave();
        assertThat(records)
                .singleElement()
                .satisfies(r -> assertThat(r.outcome()).isEqualTo(TimingRecord.Outcome.LOST));
    }

    /** A users file edited between two runs in one JVM (the GUI) is read again by the next run. */
    @Test
    void eachRunReadsTheUsersFileAgain(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("users.csv"), "alice,a\n");
        Run first = Run.join(0, 5_000, r -> {});
        assertThat(first.usersFile(file).user(1).login()).isEqualTo("alice");
        Files.writeString(file, "bob,b\n");
        assertThat(first.usersFile(file).user(1).login())
                .as("read once per run")
                .isEqualTo("alice");
        first.leave();
        Run second = Run.join(0, 6_000, r -> {});
        assertThat(second.usersFile(file).user(1).login()).isEqualTo("bob");
        second.leave();
    }
}
