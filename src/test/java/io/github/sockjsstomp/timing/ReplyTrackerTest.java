package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.timing.TimingRecord.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;

class ReplyTrackerTest {

    private static final long TIMEOUT_MILLIS = 1000;
    private final MessageIds ids = new MessageIds("mtest00-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final List<TimingRecord> records = Collections.synchronizedList(new ArrayList<>());
    private final TimingSink sink = records::add;
    private final ExecutorService pool = Executors.newFixedThreadPool(8);

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    private MessageTiming send(String sender, boolean awaited, int repliesExpected) {
        return TestMessages.register(
                tracker,
                TestMessages.outgoing(sender, ids.next()),
                TestMessages.options(TIMEOUT_MILLIS, repliesExpected, awaited),
                sink);
    }

    private static IncomingMessage reply(String receiver, int bytes) {
        return TestMessages.incoming(receiver, bytes);
    }

    private long afterDeadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS) + 1;
    }

    @Test
    void echoReplyIsOneAnsweredRecordWithSenderAndReceiver() {
        long before = System.nanoTime();
        MessageTiming sent = send("alice", false, 1);
        tracker.reply(sent.msgId(), reply("alice", 7));
        long tookMicros = (System.nanoTime() - before) / 1000;

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.ANSWERED);
            assertThat(r.msgId()).isEqualTo(sent.msgId());
            assertThat(r.sender()).isEqualTo("alice");
            assertThat(r.receiver()).isEqualTo("alice");
            assertThat(r.senderUser()).isEqualTo("alice #1");
            assertThat(r.receiverUser()).isEqualTo("alice #1");
            assertThat(r.bytes()).isEqualTo(7);
            assertThat(r.latencyMicros())
                    .as("send to reply, within what the test took")
                    .isBetween(0L, tookMicros);
            assertThat(r.detail()).isEmpty();
        });
        assertThat(tracker.books())
                .isEqualTo(Books.builder().sent(1).answered(1).answerRecords(1).build());
    }

    /** A topic seen by many with one reply expected: the copies are extra, not late (nothing was LOST). */
    @Test
    void copiesBeyondTheExpectedRepliesAreExtraNotLate() {
        MessageTiming sent = send("alice", false, 1);
        for (String receiver : List.of("alice", "bob", "carol")) {
            tracker.reply(sent.msgId(), reply(receiver, 1));
        }
        assertThat(records).singleElement().extracting(TimingRecord::receiver).isEqualTo("alice");
        assertThat(tracker.books())
                .isEqualTo(Books.builder()
                        .sent(1)
                        .answered(1)
                        .answerRecords(1)
                        .extraReplies(2)
                        .build());
    }

    /** An echo on a topic every user sees: the round trip is the sender's, whoever's copy came first. */
    @Test
    void aMessageOnlyItsSendersReplyAnswersIgnoresOtherUsersCopies() {
        MessageTiming sent = TestMessages.register(
                tracker,
                TestMessages.outgoing("alice", ids.next()),
                new TimingOptions(
                        TIMEOUT_MILLIS, 1, SendMode.AWAIT_REPLY, TimingOptions.DEFAULT_ID_HEADER, null, true, false),
                sink);
        for (String receiver : List.of("bob", "carol", "alice", "dave")) {
            tracker.reply(sent.msgId(), reply(receiver, 1));
        }
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.receiver()).isEqualTo("alice");
            assertThat(r.receiverUser()).isEqualTo(r.senderUser());
        });
        assertThat(tracker.books())
                .isEqualTo(Books.builder()
                        .sent(1)
                        .answered(1)
                        .answerRecords(1)
                        .extraReplies(3)
                        .build());
    }

    @Test
    void broadcastCountsEveryReplyUntilTheTimeoutButTheMessageOnce() {
        MessageTiming sent = send("alice", false, 0);
        for (String receiver : List.of("alice", "bob", "carol")) {
            tracker.reply(sent.msgId(), reply(receiver, 5));
        }
        tracker.expire(afterDeadline());

        assertThat(records).extracting(TimingRecord::receiver).containsExactly("alice", "bob", "carol");
        assertThat(records).extracting(TimingRecord::outcome).containsOnly(Outcome.ANSWERED);
        assertThat(tracker.books())
                .isEqualTo(Books.builder().sent(1).answered(1).answerRecords(3).build());
    }

    @Test
    void unansweredMessageIsLostAtItsDeadlineAndALaterReplyIsLate() {
        MessageTiming sent = send("alice", false, 1);
        tracker.expire(System.nanoTime());
        assertThat(records).isEmpty();

        tracker.expire(afterDeadline());
        long lateMicros = TimeUnit.MILLISECONDS.toMicros(3 * TIMEOUT_MILLIS);
        tracker.reply(sent.msgId(), replyAt(sent, lateMicros));

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.LOST);
            assertThat(r.detail()).isEqualTo("timeout");
            assertThat(r.latencyMicros()).isEqualTo(-1);
            assertThat(r.bytes()).isEqualTo(3);
        });
        assertThat(tracker.books())
                .isEqualTo(Books.builder()
                        .sent(1)
                        .lost(1)
                        .lateReplies(1)
                        .lateMaxMicros(lateMicros)
                        .build());
    }

    /**
     * Issue 29: the sweep forgets a LOST message, and its late reply said "up to 0 ms after the send". How late
     * is measured from the send of the LOST message, whichever of many late replies is the latest.
     */
    @Test
    void lateRepliesAfterTheSweepForgotTheirMessagesSayHowLateTheyCame() {
        List<MessageTiming> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sent.add(send("alice", false, 1));
        }
        tracker.expire(afterDeadline());
        for (int i = 0; i < sent.size(); i++) {
            tracker.reply(sent.get(i).msgId(), replyAt(sent.get(i), TimeUnit.MILLISECONDS.toMicros(5_000 + 100 * i)));
        }

        Books books = tracker.books();
        assertThat(books.lost()).isEqualTo(40);
        assertThat(books.lateReplies()).isEqualTo(40);
        assertThat(books.lateMaxMicros()).isEqualTo(TimeUnit.MILLISECONDS.toMicros(8_900));
        assertThat(books.toString()).contains("late replies=40 up to 8900 ms after their send");
    }

    /** A reply for an id of ours that no LOST message of this run had (a copy from an earlier run): late, unmeasured. */
    @Test
    void aLateReplyWhoseSendIsUnknownIsCountedButNotMeasured() {
        send("alice", false, 1);
        tracker.expire(afterDeadline());
        tracker.reply(ids.prefix() + "999999", reply("alice", 1));

        assertThat(tracker.books().lateReplies()).isEqualTo(1);
        assertThat(tracker.books().lateMaxMicros()).isZero();
    }

    /** A reply to {@code sent} that arrives {@code micros} after its send. */
    private static IncomingMessage replyAt(MessageTiming sent, long micros) {
        return TestMessages.incoming(
                "alice", new StompHeaders(), new byte[1], sent.sentNanos + TimeUnit.MICROSECONDS.toNanos(micros));
    }

    /** The sweep runs every few milliseconds: a reply that came after the deadline is late even before it. */
    @Test
    void aReplyAfterTheDeadlineIsLateBeforeTheSweepHasRun() {
        MessageTiming sent = send("alice", true, 1);
        long receivedNanos = afterDeadline();
        tracker.reply(sent.msgId(), TestMessages.incoming("alice", new StompHeaders(), new byte[1], receivedNanos));

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.LOST);
            assertThat(r.detail()).isEqualTo("timeout");
        });
        Books books = tracker.books();
        assertThat(books.lost()).isEqualTo(1);
        assertThat(books.lateReplies()).isEqualTo(1);
        assertThat(books.extraReplies()).isZero();
        assertThat(books.lateMaxMicros())
                .as("how late: the reply came a timeout after the send")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(TIMEOUT_MILLIS));
        assertThat(books.toString()).contains("late replies=1 up to ");
        tracker.expire(afterDeadline());
        assertThat(records).hasSize(1);
    }

    @Test
    void failedSendIsFailedOnceWithItsReason() {
        MessageTiming sent = send("alice", false, 1);
        tracker.fail(sent, "Not connected");
        tracker.fail(sent, "again");
        tracker.expire(afterDeadline());

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(r.detail()).isEqualTo("Not connected");
        });
        assertThat(tracker.books()).isEqualTo(Books.builder().sent(1).failed(1).build());
    }

    @Test
    void abandonAllLosesWhatIsOutstandingAsTestEnded() {
        send("alice", false, 1);
        MessageTiming answered = send("bob", false, 1);
        tracker.reply(answered.msgId(), reply("bob", 1));
        tracker.abandonAll("test-ended");

        assertThat(records)
                .extracting(TimingRecord::outcome, TimingRecord::detail)
                .containsExactlyInAnyOrder(Tuple.tuple(Outcome.ANSWERED, ""), Tuple.tuple(Outcome.LOST, "test-ended"));
        assertThat(tracker.books().balanced()).isTrue();
        assertThat(tracker.books().pending()).isZero();
    }

    @Test
    void repliesWithoutIdOrWithForeignIdsAreUntimed() {
        tracker.reply(null, reply("bob", 1));
        tracker.reply("mother0-1", reply("bob", 1));
        assertThat(tracker.books().untimed()).isEqualTo(2);
        assertThat(records).isEmpty();
    }

    @Test
    void awaitedMessageGetsItsFirstReplyOrNullWhenLost() throws Exception {
        MessageTiming answered = send("alice", true, 1);
        IncomingMessage message = reply("alice", 4);
        tracker.reply(answered.msgId(), message);
        assertThat(answered.awaitFirstReply(1000)).isSameAs(message);

        MessageTiming lost = send("alice", true, 1);
        tracker.expire(afterDeadline());
        assertThat(lost.awaitFirstReply(1000)).isNull();
    }

    @Test
    void concurrentSendsRepliesAndExpiryKeepTheBooksExact() throws Exception {
        int senders = 8;
        int perSender = 5_000;
        List<Future<List<String>>> sent = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            String sender = "user-" + s;
            sent.add(pool.submit(() -> {
                List<String> mine = new ArrayList<>();
                for (int i = 0; i < perSender; i++) {
                    mine.add(send(sender, false, 1).msgId());
                }
                return mine;
            }));
        }
        List<String> all = new ArrayList<>();
        for (Future<List<String>> future : sent) {
            all.addAll(future.get(60, TimeUnit.SECONDS));
        }
        // Reply to even ids, twice each from two threads (two subscribers: a copy each), while the last ones are
        // declared lost.
        List<Future<?>> repliers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            String receiver = "echo-" + t;
            repliers.add(pool.submit(() -> {
                for (int i = 0; i < all.size(); i += 2) {
                    tracker.reply(all.get(i), reply(receiver, 1));
                }
            }));
        }
        repliers.add(pool.submit(() -> tracker.abandonAll("test-ended")));
        for (Future<?> future : repliers) {
            future.get(60, TimeUnit.SECONDS);
        }
        tracker.abandonAll("test-ended");

        Books books = tracker.books();
        assertThat(books.sent()).isEqualTo(senders * perSender);
        assertThat(books.balanced()).isTrue();
        assertThat(books.pending()).isZero();
        assertThat(books.answered() + books.lost()).isEqualTo(senders * perSender);
        Map<String, List<Outcome>> outcomesById = records.stream()
                .collect(Collectors.groupingBy(
                        TimingRecord::msgId, Collectors.mapping(TimingRecord::outcome, Collectors.toList())));
        assertThat(outcomesById).hasSize(senders * perSender);
        assertThat(outcomesById.values())
                .allSatisfy(outcomes -> assertThat(outcomes).hasSize(1));
        Map<Outcome, Long> counts =
                records.stream().collect(Collectors.groupingBy(TimingRecord::outcome, Collectors.counting()));
        assertThat(counts.getOrDefault(Outcome.ANSWERED, 0L)).isEqualTo(books.answered());
        assertThat(counts.getOrDefault(Outcome.LOST, 0L)).isEqualTo(books.lost());
        assertThat(records.stream().map(TimingRecord::msgId).collect(Collectors.toSet()))
                .isEqualTo(all.stream().collect(Collectors.toSet()));
        assertThat(Function.<Books>identity().apply(books).answerRecords()).isEqualTo(books.answered());
    }
}
