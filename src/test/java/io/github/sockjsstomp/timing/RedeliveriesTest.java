package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.timing.TimingRecord.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A message a broker delivers again (after a NACK, a session lost with it unacknowledged) is counted beside the
 * books, never as a second answer: sent = answered + lost + failed still holds.
 */
class RedeliveriesTest {

    private static final long TIMEOUT_MILLIS = 60_000;
    private final MessageIds ids = new MessageIds("mredel0-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());

    private MessageTiming send(String sender, int repliesExpected) {
        return TestMessages.register(
                tracker,
                TestMessages.outgoing(sender, ids.next()),
                TestMessages.options(TIMEOUT_MILLIS, repliesExpected, false),
                records::add);
    }

    private static IncomingMessage delivery(String receiver, boolean markedRedelivered, long receivedNanos) {
        return delivery(receiver, "m-" + receiver, markedRedelivered, receivedNanos);
    }

    /** A MESSAGE under the broker's {@code messageId}. */
    private static IncomingMessage delivery(
            String receiver, String messageId, boolean markedRedelivered, long receivedNanos) {
        StompHeaders headers = new StompHeaders();
        headers.setMessageId(messageId);
        if (markedRedelivered) {
            headers.set("redelivered", "true");
        }
        return TestMessages.incoming(receiver, headers, new byte[3], receivedNanos);
    }

    @Test
    void aMessageMarkedRedeliveredIsCountedBesideTheBooksWithItsTimeFromTheFirstDelivery() {
        MessageTiming sent = send("alice", 1);
        long first = System.nanoTime();
        tracker.reply(sent.msgId(), delivery("alice", false, first));
        // another consumer of the queue takes it over after alice's session was lost
        tracker.reply(sent.msgId(), delivery("bob", true, first + TimeUnit.MILLISECONDS.toNanos(250)));

        Books books = tracker.books();
        assertThat(books)
                .isEqualTo(Books.builder()
                        .sent(1)
                        .answered(1)
                        .answerRecords(1)
                        .redeliveries(1)
                        .redeliveryMaxMicros(250_000)
                        .build());
        assertThat(books.balanced()).isTrue();
        assertThat(books.toString()).contains(", redeliveries=1 up to 250 ms after the first delivery)");
        assertThat(records).extracting(TimingRecord::outcome).containsExactly(Outcome.ANSWERED, Outcome.REDELIVERED);
        TimingRecord again = records.get(1);
        assertThat(again.receiverUser()).isEqualTo("bob #1");
        assertThat(again.redeliveredAfterMicros()).isEqualTo(250_000);
        assertThat(records.get(0).redeliveredAfterMicros()).isEqualTo(-1);
    }

    @Test
    void theSameMessageAgainAtTheSameReceiverIsARedeliveryWithoutTheBrokersMark() {
        // Artemis delivers some messages again unmarked after a session loss, under a new message-id (its consumer's)
        MessageTiming sent = send("alice", 1);
        long first = System.nanoTime();
        tracker.reply(sent.msgId(), delivery("alice", "159,78", false, first));
        tracker.reply(sent.msgId(), delivery("alice", "166,80", false, first + 1000));
        // another subscriber's copy: an extra copy, as before
        tracker.reply(sent.msgId(), delivery("bob", "159,78", false, first + 2000));
        assertThat(tracker.books())
                .isEqualTo(Books.builder()
                        .sent(1)
                        .answered(1)
                        .answerRecords(1)
                        .extraReplies(1)
                        .redeliveries(1)
                        .redeliveryMaxMicros(1)
                        .build());
    }

    @Test
    void aFirstDeliveryMarkedRedeliveredIsTheAnswer() {
        // the first delivery reached a consumer that is not ours (or before the run): ours is the first we time
        MessageTiming sent = send("alice", 1);
        tracker.reply(sent.msgId(), delivery("alice", true, System.nanoTime()));
        assertThat(tracker.books())
                .isEqualTo(Books.builder().sent(1).answered(1).answerRecords(1).build());
    }

    @Test
    void aRedeliveryOfAForgottenMessageIsCountedNotLate() {
        MessageTiming sent = send("alice", 1);
        tracker.reply(sent.msgId(), delivery("alice", false, System.nanoTime()));
        tracker.abandonAll("test-ended"); // answered: forgotten
        tracker.reply(sent.msgId(), delivery("alice", true, System.nanoTime()));
        tracker.reply(sent.msgId(), delivery("alice", false, System.nanoTime()));
        Books books = tracker.books();
        assertThat(books.redeliveries()).isOne();
        assertThat(books.redeliveryMaxMicros()).isZero();
        assertThat(books.lateReplies()).isOne(); // unmarked and forgotten: it cannot be told from a late reply
        assertThat(books.balanced()).isTrue();
    }
}
