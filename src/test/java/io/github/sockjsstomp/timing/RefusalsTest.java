package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.timing.TimingRecord.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server's ERROR frames on open sessions, as the tracker books them and the run says them. */
class RefusalsTest {

    private static final long TIMEOUT_MILLIS = 1000;
    private static final String WORDS = "Unknown destination: '/app/hello' is not a valid destination.";

    private final MessageIds ids = new MessageIds("mrefus0-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
    private final List<String> said = new ArrayList<>();
    private final SenderBook alice = new SenderBook();

    RefusalsTest() {
        tracker.refusals().onFirstOfItsWords(said::add);
    }

    private MessageTiming send(SenderBook sender) {
        return tracker.register(
                TestMessages.outgoing("alice", ids.next()),
                TestMessages.options(TIMEOUT_MILLIS, 1, false),
                records::add,
                sender);
    }

    private static long afterDeadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS) + 1;
    }

    @Test
    void aRefusalNamingItsMessageFailsItWithTheServersWordsAndTheBooksBalance() {
        MessageTiming refused = send(alice);
        MessageTiming fine = send(alice);
        tracker.refused(alice, refused, "Bad SEND: Refused", "SEND to /app/fail", "alice #1");
        tracker.reply(fine.msgId(), TestMessages.incoming("alice", 1));
        tracker.expire(afterDeadline());

        assertThat(records)
                .filteredOn(r -> r.outcome() == Outcome.FAILED)
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.msgId()).isEqualTo(refused.msgId());
                    assertThat(r.detail()).isEqualTo("StompError: Bad SEND: Refused");
                });
        Books books = tracker.books();
        assertThat(books.sent()).isEqualTo(2);
        assertThat(books.answered()).isEqualTo(1);
        assertThat(books.failed()).isEqualTo(1);
        assertThat(books.lost()).isZero();
        assertThat(books.balanced()).isTrue();
        assertThat(said)
                .singleElement()
                .asString()
                .contains("\"Bad SEND: Refused\"")
                .contains("alice #1, SEND to /app/fail")
                .contains("The message it names is FAILED");
    }

    /** RabbitMQ's ERROR names no message: its messages are LOST at their deadline, and the run says why. */
    @Test
    void refusalsNamingNoMessageLeaveItsMessagesLostAndCountThemAsLostWhileRefused() {
        MessageTiming first = send(alice);
        MessageTiming second = send(alice);
        SenderBook bob = new SenderBook();
        MessageTiming bobs = send(bob);
        tracker.refused(alice, null, WORDS, "its last SEND went to /app/hello", "alice #1");
        tracker.refused(alice, null, WORDS, "its last SEND went to /app/hello", "alice #1");
        MessageTiming afterTheRefusals = send(alice);
        tracker.expire(afterDeadline());

        assertThat(records).extracting(TimingRecord::outcome).containsOnly(Outcome.LOST);
        assertThat(records)
                .extracting(TimingRecord::msgId)
                .containsExactlyInAnyOrder(first.msgId(), second.msgId(), bobs.msgId(), afterTheRefusals.msgId());
        assertThat(tracker.books().lost()).isEqualTo(4);
        assertThat(tracker.refusals().count()).isEqualTo(2);
        assertThat(said).singleElement().asString().contains(WORDS).contains("LOST at their deadline");
        assertThat(tracker.refusals().endLines())
                .as("LOST while refused: alice's two sent before the refusals; not bob's, not the one sent after them")
                .containsExactly(
                        "stomp server refusals (ERROR frames): 2 x " + WORDS,
                        "stomp: 2 messages were LOST while the server was refusing their senders' frames with ERRORs "
                                + "that named no message: likely refused, not lost");
    }

    @Test
    void aMessageAnsweredBeforeTheRefusalStaysAnswered() {
        MessageTiming answered = send(alice);
        tracker.reply(answered.msgId(), TestMessages.incoming("alice", 1));
        tracker.refused(alice, answered, "late refusal", null, "alice #1");

        assertThat(tracker.books().answered()).isEqualTo(1);
        assertThat(tracker.books().failed()).isZero();
        assertThat(said).singleElement().asString().contains("\"late refusal\" (alice #1)");
    }

    @Test
    void eachDistinctTextIsSaidOnce() {
        tracker.refused(alice, null, "a", null, "alice #1");
        tracker.refused(alice, null, "b", null, "alice #1");
        tracker.refused(alice, null, "a", null, "alice #1");
        assertThat(said).hasSize(2);
        assertThat(tracker.refusals().endLines())
                .containsExactly(
                        "stomp server refusals (ERROR frames): 2 x a", "stomp server refusals (ERROR frames): 1 x b");
    }

    /** ActiveMQ quotes the refused frame, ids and numbers in it: one text, said once with its first words. */
    @Test
    void wordsThatDifferOnlyInTheirNumbersAreOneText() {
        tracker.refused(alice, null, "Refused: {\"id\":\"mrefus0-1\",\"seq\":1}", null, "alice #1");
        tracker.refused(alice, null, "Refused: {\"id\":\"mrefus0-2\",\"seq\":2}", null, "alice #1");
        assertThat(said).singleElement().asString().contains("mrefus0-1");
        assertThat(tracker.refusals().endLines())
                .containsExactly("stomp server refusals (ERROR frames): 2 x Refused: {\"id\":\"mrefus0-1\",\"seq\":1}");
    }

    @Test
    void theServersWordsAreOneLineAndCut() {
        assertThat(Refusals.shorten("Bad SEND:\n  the frame\r\n\tquoted ")).isEqualTo("Bad SEND: the frame quoted");
        String cut = Refusals.shorten("x".repeat(1000));
        assertThat(cut).hasSize(Refusals.MAX_WORDS_CHARS).endsWith("...");
    }

    @Test
    void theLiveSummarySaysHowManyFramesTheServerRefused() {
        List<String> lines = new ArrayList<>();
        tracker.summarizeEvery(3600, lines::add);
        send(alice);
        tracker.refused(alice, null, WORDS, null, "alice #1");
        tracker.endSummary();
        assertThat(lines.get(0)).contains("pending 1, refused by the server 1 (ERROR frames); no replies");
    }

    @Test
    void unsaidRefusalsAreTakenOnceWithTheirCount() {
        UnsaidRefusals unsaid = new UnsaidRefusals();
        assertThat(unsaid.take()).isNull();
        unsaid.note("first");
        assertThat(unsaid.take()).isEqualTo("first");
        assertThat(unsaid.take()).isNull();
        unsaid.note("a");
        unsaid.note("b");
        unsaid.note("c");
        assertThat(unsaid.take()).isEqualTo("c (the last of 3 ERROR frames since the last sample)");
    }
}
