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

/** Receipts in the books and the timing log: the tracker is driven with exact arrival times. */
class ReceiptTrackingTest {

    private static final long TIMEOUT_MILLIS = 1000;
    private final MessageIds ids = new MessageIds("mrcpt00-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());

    private MessageTiming send(SendMode mode, boolean receipts) {
        TimingOptions options =
                new TimingOptions(TIMEOUT_MILLIS, 1, mode, TimingOptions.DEFAULT_ID_HEADER, null, false, receipts);
        return TestMessages.register(tracker, TestMessages.outgoing("alice", ids.next()), options, records::add);
    }

    private static long at(MessageTiming sent, long micros) {
        return sent.sentNanos + TimeUnit.MICROSECONDS.toNanos(micros);
    }

    private static IncomingMessage replyAt(MessageTiming sent, long micros) {
        return TestMessages.incoming("alice", new StompHeaders(), new byte[5], at(sent, micros));
    }

    private void receipt(MessageTiming sent, long micros) {
        tracker.receipt(sent.msgId(), TestMessages.user("alice"), at(sent, micros));
    }

    @Test
    void aReceiptBeforeTheReplyIsInTheReplysRecord() {
        MessageTiming sent = send(SendMode.FIRE_AND_FORGET, true);
        receipt(sent, 300);
        assertThat(records).isEmpty();
        tracker.reply(sent.msgId(), replyAt(sent, 2_000));
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.ANSWERED);
            assertThat(r.latencyMicros()).isEqualTo(2_000);
            assertThat(r.receiptMicros()).isEqualTo(300);
        });
        Books books = tracker.books();
        assertThat(List.of(books.receiptsAsked(), books.receipts(), books.noReceipts()))
                .containsExactly(1L, 1L, 0L);
        assertThat(tracker.counts().receipts().latencySnapshot().getMaxValue()).isEqualTo(300);
    }

    /** Brokers route before they acknowledge: the reply may come first, and its record waits for the receipt. */
    @Test
    void aReplyThatOvertookItsReceiptIsWrittenWhenTheReceiptComes() {
        MessageTiming sent = send(SendMode.FIRE_AND_FORGET, true);
        tracker.reply(sent.msgId(), replyAt(sent, 900));
        assertThat(records).as("held for the receipt").isEmpty();
        assertThat(tracker.books().answered()).isEqualTo(1);
        receipt(sent, 1_100);
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.latencyMicros()).isEqualTo(900);
            assertThat(r.receiptMicros()).isEqualTo(1_100);
        });
        receipt(sent, 1_200);
        assertThat(records).as("a second RECEIPT changes nothing").hasSize(1);
        assertThat(tracker.books().receipts()).isEqualTo(1);
    }

    @Test
    void noReceiptByTheDeadlineWritesTheRecordWithoutOneAndALaterReceiptIsLate() {
        MessageTiming sent = send(SendMode.FIRE_AND_FORGET, true);
        tracker.reply(sent.msgId(), replyAt(sent, 900));
        tracker.expire(at(sent, TimeUnit.MILLISECONDS.toMicros(TIMEOUT_MILLIS) + 1));
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.ANSWERED);
            assertThat(r.receiptMicros()).isEqualTo(-1);
        });
        receipt(sent, 1_500_000);
        Books books = tracker.books();
        assertThat(List.of(books.answered(), books.receipts(), books.noReceipts(), books.lateReceipts()))
                .containsExactly(1L, 0L, 1L, 1L);
        assertThat(books.toString()).endsWith(" receipts=0 no-receipt=1 (late receipts=1)");
    }

    /** The server took it and answered nothing: the LOST record says when it took it. */
    @Test
    void aLostMessageWhoseReceiptCameCarriesIt() {
        MessageTiming sent = send(SendMode.FIRE_AND_FORGET, true);
        receipt(sent, 250);
        tracker.expire(at(sent, TimeUnit.MILLISECONDS.toMicros(TIMEOUT_MILLIS) + 1));
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.LOST);
            assertThat(r.detail()).isEqualTo("timeout");
            assertThat(r.receiptMicros()).isEqualTo(250);
        });
    }

    @Test
    void awaitReceiptIsAnsweredByTheReceiptAndARepliesAreExtraCopies() throws InterruptedException {
        MessageTiming sent = send(SendMode.AWAIT_RECEIPT, false);
        receipt(sent, 700);
        IncomingMessage answer = sent.awaitFirstReply(0);
        assertThat(answer).isNotNull();
        assertThat(answer.subscription()).isEqualTo(MessageReceipt.SUBSCRIPTION);
        tracker.reply(sent.msgId(), replyAt(sent, 800));
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.ANSWERED);
            assertThat(r.mode()).isEqualTo(SendMode.AWAIT_RECEIPT);
            assertThat(r.receiver()).isEqualTo("alice");
            assertThat(r.latencyMicros()).isEqualTo(700);
            assertThat(r.receiptMicros()).isEqualTo(700);
            assertThat(r.bytes()).isZero();
        });
        Books books = tracker.books();
        assertThat(List.of(books.sent(), books.answered(), books.extraReplies(), books.receipts()))
                .containsExactly(1L, 1L, 1L, 1L);
        assertThat(books.balanced()).isTrue();
    }

    @Test
    void anErrorNamingTheReceiptFailsThatMessageWithTheServersWords() throws InterruptedException {
        MessageTiming refused = send(SendMode.AWAIT_RECEIPT, false);
        MessageTiming other = send(SendMode.AWAIT_RECEIPT, false);
        tracker.receiptRefused(refused.msgId(), "StompError: Bad SEND: Refused: hello");
        assertThat(refused.awaitFirstReply(0)).isNull();
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(r.msgId()).isEqualTo(refused.msgId());
            assertThat(r.detail()).isEqualTo("StompError: Bad SEND: Refused: hello");
            assertThat(r.receiptMicros()).isEqualTo(-1);
        });
        tracker.receiptRefused("someone-elses-receipt", "StompError: x");
        Books books = tracker.books();
        assertThat(List.of(books.failed(), books.pending(), books.noReceipts())).containsExactly(1L, 1L, 1L);
        assertThat(tracker.books().receiptsAsked()).isEqualTo(2);
        receipt(other, 100);
        assertThat(tracker.books().answered()).isEqualTo(1);
    }

    /** The test ends: what waited for a receipt is written, and counted as without one. */
    @Test
    void theEndOfTheTestWritesWhatWaitedForAReceipt() throws InterruptedException {
        MessageTiming sent = send(SendMode.FIRE_AND_FORGET, true);
        tracker.reply(sent.msgId(), replyAt(sent, 400));
        assertThat(tracker.books().pending()).isZero();
        assertThat(new ReplyDrain(tracker.counts()).awaitQuiet(50, 0))
                .as("a receipt is still to come")
                .isFalse();
        tracker.abandonAll("test-ended");
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.ANSWERED);
            assertThat(r.receiptMicros()).isEqualTo(-1);
        });
        assertThat(tracker.books().noReceipts()).isEqualTo(1);
        assertThat(new ReplyDrain(tracker.counts()).awaitQuiet(50, 0)).isTrue();
    }

    @Test
    void withoutReceiptsNothingWaitsAndTheBooksReadAsBefore() {
        MessageTiming sent = send(SendMode.FIRE_AND_FORGET, false);
        assertThat(sent.receipt).isNull();
        tracker.reply(sent.msgId(), replyAt(sent, 400));
        receipt(sent, 300);
        assertThat(records)
                .singleElement()
                .extracting(TimingRecord::receiptMicros)
                .isEqualTo(-1L);
        assertThat(tracker.books())
                .isEqualTo(Books.builder().sent(1).answered(1).answerRecords(1).build());
        assertThat(tracker.books().toString()).doesNotContain("receipt");
    }
}
