package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Matches each reply and receipt to the message it answers, across every virtual user of the run (echo: the same
 * user; chat and broadcast: others), and settles each message's outcome once: answered, LOST at its deadline (see
 * {@link Deadlines}, swept by an {@link ExpirySweeper}) or FAILED. One per run: a reply may reach any user. What
 * it settles is counted in its {@link ReplyCounts} and written to the sender's timing log and the feed.
 */
public final class ReplyTracker {

    private static final String DEADLINE_PASSED = "timeout"; // a LOST record's detail (or the test's end reason)
    private static final String REDELIVERED = "redelivered";

    private final MessageIds ids;
    private final ReplyFeed feed;
    private final Map<String, MessageTiming> known = new ConcurrentHashMap<>();
    private final Deadlines deadlines = new Deadlines();
    private final ReplyCounts counts = new ReplyCounts();
    /** The books per step of a stepped run (empty otherwise). */
    private final StepWindows steps = new StepWindows();
    /** When the last LOST messages were sent: their late replies come after the tracker forgot them. */
    private final RecentlyLost recentlyLost = new RecentlyLost(System.nanoTime());

    private final Refusals refusals = new Refusals();
    private volatile Supplier<String> summaryMore = () -> null;
    /** Made once: {@link #expire} runs ten times a second, and a lambda made there would be allocated each time. */
    private final Consumer<MessageTiming> timeOutAtDeadline = entry -> timeOut(entry, DEADLINE_PASSED);

    /** Messages end LOST at their deadline only when {@link #expire} is called: an {@link ExpirySweeper} does. */
    public ReplyTracker(MessageIds ids, ReplyFeed feed) {
        this.ids = ids;
        this.feed = feed;
    }

    public MessageIds ids() {
        return ids;
    }

    /**
     * Called just before the message is written; the clock starts here. {@code sender} counts the sender's
     * messages answered (for a hint when none is) and knows when the server last refused one of its frames.
     */
    MessageTiming register(OutgoingMessage message, TimingOptions options, TimingSink sink, SenderBook sender) {
        return register(message, message.destination(), options, sink, sender);
    }

    /** @param destinationAsWritten the destination as the plan writes it, placeholders and all: its reply row's label */
    MessageTiming register(
            OutgoingMessage message,
            String destinationAsWritten,
            TimingOptions options,
            TimingSink sink,
            SenderBook sender) {
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(options.replyTimeoutMillis());
        Instant now = Instant.now();
        long sentEpochMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        MessageTiming entry = new MessageTiming(
                message,
                destinationAsWritten,
                feed.keepsContents(),
                sentEpochMicros,
                System.nanoTime(),
                options,
                sink,
                sender);
        counts.sent();
        if (entry.receipt != null) {
            counts.receipts().ask();
        }
        known.put(entry.msgId, entry);
        deadlines.add(entry, timeoutNanos);
        return entry;
    }

    public void fail(MessageTiming entry, String reason) {
        if (entry.end(MessageTiming.FAILED)) {
            counts.failed();
            steps.failed(entry.sentEpochMicros);
            known.remove(entry.msgId, entry);
            // A failed message's receipt is not awaited any more: its write failed, or the server refused it.
            noReceipt(entry);
            emit(entry, entry.record(TimingRecord.Outcome.FAILED, -1, null, entry.bytes, reason));
        }
    }

    /**
     * A RECEIPT arrived for {@code receiptId} (a message id) on {@code receiver}'s session. With await-receipt it
     * answers the message, as a reply without a body.
     */
    public void receipt(String receiptId, UserSettings receiver, long receivedNanos) {
        MessageTiming entry = known.get(receiptId);
        if (entry == null || entry.receipt == null) {
            if (entry == null && ids.isOurs(receiptId)) {
                counts.receipts().arriveLate(); // its message ended before: its deadline passed, or it failed
            }
            return;
        }
        if (receivedNanos - entry.deadlineNanos > 0) {
            timeOut(entry, DEADLINE_PASSED);
            counts.receipts().arriveLate();
            return;
        }
        long micros = Math.max(0, (receivedNanos - entry.sentNanos) / 1000);
        List<TimingRecord> waiting = entry.receipt.settle(micros);
        if (waiting == null) {
            return;
        }
        counts.receipts().receive(micros);
        if (entry.mode.answeredByReceipt()) {
            answer(entry, MessageReceipt.asReply(receiver, receivedNanos));
        }
        waiting.forEach(record -> write(entry, record));
    }

    /** An ERROR frame that names {@code receiptId}: the server refused that message. */
    public void receiptRefused(String receiptId, String reason) {
        MessageTiming entry = known.get(receiptId);
        if (entry != null && entry.receipt != null) {
            noReceipt(entry);
            fail(entry, reason);
        }
    }

    /** A message still known (sent, its deadline not passed or not yet swept); null if not. */
    MessageTiming known(String msgId) {
        return msgId == null ? null : known.get(msgId);
    }

    /**
     * An ERROR frame on an open session of {@code sender} ({@code user}): the server refused a frame. The message
     * it names ({@code named}, null if none) is FAILED with the server's words.
     *
     * @param destination where the refused frame went, as far as known; null if not
     */
    void refused(SenderBook sender, MessageTiming named, String errorText, String destination, String user) {
        sender.refused(System.nanoTime());
        if (named != null) {
            fail(named, "StompError: " + errorText);
        }
        refusals.refused(errorText, destination, named != null, user);
    }

    /** The run's ERROR frames on open sessions. */
    public Refusals refusals() {
        return refusals;
    }

    /** Settles a message's receipt as not received, and writes what waited for it. */
    private void noReceipt(MessageTiming entry) {
        List<TimingRecord> waiting = entry.receipt == null ? null : entry.receipt.settle(MessageReceipt.NONE);
        if (waiting != null) {
            counts.receipts().miss();
            waiting.forEach(record -> write(entry, record));
        }
    }

    /**
     * Records a reply found to carry {@code msgId} (null when no id was found). An answered message stays
     * known until its deadline, so a copy beyond the replies it expects (a broadcast seen by many) is told
     * apart from a late reply (one that came after its message was declared LOST).
     */
    public void reply(String msgId, IncomingMessage message) {
        if (msgId == null) {
            counts.untimed();
            return;
        }
        MessageTiming entry = known.get(msgId);
        // A first delivery (the usual message) looks at no header: redelivery is asked of answered or unknown ones.
        if (entry == null) {
            if (ids.isOurs(msgId) && redelivered(message)) {
                // its message was forgotten (its deadline passed): when it was first delivered is not known
                counts.redelivery(false, 0);
                return;
            }
            unmatched(msgId, message, null);
            return;
        }
        if (entry.answered() && (entry.cameAgain(message) || redelivered(message))) {
            redelivery(entry, message);
            if (message.receivedNanos() - entry.deadlineNanos > 0) {
                timeOut(entry, DEADLINE_PASSED);
            }
            return;
        }
        if (message.receivedNanos() - entry.deadlineNanos > 0) {
            // Past its deadline, whether or not the sweep has come round to the message yet.
            timeOut(entry, DEADLINE_PASSED);
            unmatched(msgId, message, entry);
            return;
        }
        if (entry.onlyFrom != null && !entry.onlyFrom.equals(message.receiver().name())
                || entry.mode.answeredByReceipt()) {
            // Another user's copy of a message only its sender's reply answers (a broadcast), or a reply to a
            // message its receipt answers: not an answer.
            counts.extraReply();
            return;
        }
        answer(entry, message);
    }

    /** Whether the broker says it delivers the message again ({@code redelivered:true}: RabbitMQ, Artemis). */
    private static boolean redelivered(IncomingMessage message) {
        return message.headers() != null && "true".equals(message.headers().getFirst(REDELIVERED));
    }

    /**
     * A message answered before, delivered again (after a NACK, a session lost with it unacknowledged): counted
     * beside the books, with the time from its first delivery, and written to the sender's timing log as a
     * REDELIVERED record. Never a second answer, never a reply row.
     */
    private void redelivery(MessageTiming entry, IncomingMessage message) {
        long firstNanos = entry.firstReplyNanos();
        boolean measured = firstNanos != -1;
        long afterFirstMicros = measured ? Math.max(0, (message.receivedNanos() - firstNanos) / 1000) : -1;
        counts.redelivery(measured, afterFirstMicros);
        long latencyMicros = Math.max(0, (message.receivedNanos() - entry.sentNanos) / 1000);
        entry.sink.record(entry.record(
                        TimingRecord.Outcome.REDELIVERED,
                        latencyMicros,
                        message.receiver(),
                        message.payload().length,
                        "")
                .withRedeliveredAfter(afterFirstMicros));
    }

    /** Counts and writes a reply to a known message before its deadline, if the message still takes one. */
    private void answer(MessageTiming entry, IncomingMessage message) {
        int replyNumber = entry.reply(message);
        if (replyNumber == 0) {
            unmatched(entry.msgId, message, entry);
            return;
        }
        long latencyMicros = Math.max(0, (message.receivedNanos() - entry.sentNanos) / 1000);
        counts.answer(replyNumber == 1, latencyMicros);
        if (replyNumber == 1) {
            steps.answered(entry.sentEpochMicros, latencyMicros);
        }
        emit(
                entry,
                entry.record(
                        TimingRecord.Outcome.ANSWERED,
                        latencyMicros,
                        message.receiver(),
                        message.payload().length,
                        ""));
    }

    /** A reply that answers nothing: a copy of an answered message, a late reply, or another's id. */
    private void unmatched(String msgId, IncomingMessage message, MessageTiming entry) {
        if (entry != null && entry.answered()) {
            counts.extraReply();
        } else if (ids.isOurs(msgId)) {
            long sentNanos = entry != null ? entry.sentNanos : recentlyLost.sentNanos(ids.sequenceOf(msgId));
            counts.lateReply(sentNanos != RecentlyLost.UNKNOWN, (message.receivedNanos() - sentNanos) / 1000);
        } else {
            // An id another generator issued, or a header that only looks like one.
            counts.untimed();
        }
    }

    /** Ends every message whose deadline passed: LOST if unanswered, otherwise just forgotten. */
    void expire(long nowNanos) {
        deadlines.takeExpired(nowNanos, timeOutAtDeadline);
    }

    /** Ends every message still waiting as LOST with the given reason (the test ended). */
    public void abandonAll(String reason) {
        deadlines.takeAll(entry -> timeOut(entry, reason));
    }

    /** A message whose deadline passed (or whose test ended): LOST if unanswered, otherwise just forgotten. */
    private void timeOut(MessageTiming entry, String reason) {
        known.remove(entry.msgId, entry);
        noReceipt(entry);
        lose(entry, reason);
    }

    private void lose(MessageTiming entry, String reason) {
        if (entry.end(MessageTiming.LOST)) {
            counts.lost();
            steps.lost(entry.sentEpochMicros);
            recentlyLost.lost(ids.sequenceOf(entry.msgId), entry.sentNanos);
            if (entry.senderBook.refusedSince(entry.sentNanos)) {
                refusals.lostWhileRefused();
            }
            emit(entry, entry.record(TimingRecord.Outcome.LOST, -1, null, entry.bytes, reason));
        }
    }

    /**
     * A finished message goes to its sender's timing log and, when a replies sampler runs, to the feed; one sent
     * with a receipt header once its receipt is settled.
     */
    private void emit(MessageTiming entry, TimingRecord record) {
        TimingRecord now = entry.receipt == null ? record : entry.receipt.stampOrHold(record);
        if (now != null) {
            write(entry, now);
        }
    }

    private void write(MessageTiming entry, TimingRecord record) {
        entry.sink.record(record);
        feed.offer(entry, record);
    }

    /** The books per step of a stepped run. */
    public StepWindows steps() {
        return steps;
    }

    public Books books() {
        return counts.books();
    }

    /** The run's counts: what the drain watches and the run's end reads its latencies from. */
    ReplyCounts counts() {
        return counts;
    }

    /** Starts this run's live summary (two lines an interval), stopping any earlier; a null or non-positive interval stops. */
    public ReplySummary summarizeEvery(long intervalSeconds, Consumer<String> out) {
        return counts.summarizeEvery(intervalSeconds, out, refusals, summaryMore);
    }

    /** What the live summary shows after its two lines: a line, or null for none. */
    void summarizeAlso(Supplier<String> more) {
        summaryMore = more;
    }

    /**
     * Writes the two summary lines for the time since the last ones, then stops the summary; the third line (what
     * else the run counts) is the run's end line's to say, once.
     */
    public void endSummary() {
        counts.endSummary();
    }

    @Override
    public String toString() {
        return "ReplyTracker[" + ids.prefix() + ", " + books() + "]";
    }
}
