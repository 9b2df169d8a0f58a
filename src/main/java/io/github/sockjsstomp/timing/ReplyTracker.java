package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Matches replies to sent messages across every virtual user of the run (echo: the same user; chat and
 * broadcast: others) and keeps the run's books. One per run: a reply may reach any user.
 *
 * <p>Expiry costs O(1) per message: messages with the same timeout expire in send order, so each timeout has
 * a FIFO queue and the sweeper only looks at heads.
 */
public final class ReplyTracker {

    private static final long SWEEP_MILLIS = 100; // how late a LOST record may be written (never its verdict)
    private static final long QUIET_POLL_MILLIS = 20; // how late awaitQuiet may see the test's last reply
    private static final String DEADLINE_PASSED = "timeout"; // a LOST record's detail (or the test's end reason)

    private final MessageIds ids;
    private final ReplyFeed feed;
    private final Map<String, MessageTiming> known = new ConcurrentHashMap<>();
    private final Map<Long, Queue<MessageTiming>> expiryQueues = new ConcurrentHashMap<>();
    private final LongAdder sent = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder answerRecords = new LongAdder();
    private final LongAdder extraReplies = new LongAdder();
    private final LongAdder lateReplies = new LongAdder();
    /** The longest send-to-reply time of a late reply. */
    private final LongAccumulator lateMaxMicros = new LongAccumulator(Math::max, 0);
    /** When the last LOST messages were sent: their late replies come after the tracker forgot them. */
    private final RecentlyLost recentlyLost = new RecentlyLost(System.nanoTime());

    private final LongAdder untimed = new LongAdder();
    /** Microseconds; auto-resizing, so no value is rejected. */
    private final ConcurrentHistogram latencies = new ConcurrentHistogram(3);

    private final ReceiptBooks receipts = new ReceiptBooks();
    private final Refusals refusals = new Refusals();
    private final ScheduledExecutorService sweeper;
    private volatile ReplySummary summary;

    ReplyTracker(MessageIds ids, ReplyFeed feed, boolean sweep) {
        this.ids = ids;
        this.feed = feed;
        if (sweep) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "stomp-reply-expiry");
                thread.setDaemon(true);
                return thread;
            });
            sweeper.scheduleWithFixedDelay(
                    () -> expire(System.nanoTime()), SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            sweeper = null;
        }
    }

    public MessageIds ids() {
        return ids;
    }

    /**
     * Called just before the message is written; the clock starts here. {@code sender} counts the sender's
     * messages answered (for a hint when none is) and knows when the server last refused one of its frames.
     */
    MessageTiming register(OutgoingMessage message, TimingOptions options, TimingSink sink, SenderBook sender) {
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(options.replyTimeoutMillis());
        Instant now = Instant.now();
        long sentEpochMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        MessageTiming entry = new MessageTiming(message, sentEpochMicros, System.nanoTime(), options, sink, sender);
        sent.increment();
        if (entry.receipt != null) {
            receipts.ask();
        }
        known.put(entry.msgId, entry);
        expiryQueues
                .computeIfAbsent(timeoutNanos, t -> new ConcurrentLinkedQueue<>())
                .add(entry);
        return entry;
    }

    public void fail(MessageTiming entry, String reason) {
        if (entry.end(MessageTiming.FAILED)) {
            failed.increment();
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
                receipts.arriveLate(); // its message ended before: its deadline passed, or it failed
            }
            return;
        }
        if (receivedNanos - entry.deadlineNanos > 0) {
            timeOut(entry, DEADLINE_PASSED);
            receipts.arriveLate();
            return;
        }
        long micros = Math.max(0, (receivedNanos - entry.sentNanos) / 1000);
        List<TimingRecord> waiting = entry.receipt.settle(micros);
        if (waiting == null) {
            return;
        }
        receipts.receive(micros);
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
    void refused(SenderBook sender, MessageTiming named, String words, String destination, String user) {
        sender.refused(System.nanoTime());
        if (named != null) {
            fail(named, "StompError: " + words);
        }
        refusals.refused(words, destination, named != null, user);
    }

    /** The run's ERROR frames on open sessions. */
    public Refusals refusals() {
        return refusals;
    }

    /** Settles a message's receipt as not received, and writes what waited for it. */
    private void noReceipt(MessageTiming entry) {
        List<TimingRecord> waiting = entry.receipt == null ? null : entry.receipt.settle(MessageReceipt.NONE);
        if (waiting != null) {
            receipts.miss();
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
            untimed.increment();
            return;
        }
        MessageTiming entry = known.get(msgId);
        if (entry == null) {
            unmatched(msgId, message, null);
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
            extraReplies.increment();
            return;
        }
        answer(entry, message);
    }

    /** Counts and writes a reply to a known message before its deadline, if the message still takes one. */
    private void answer(MessageTiming entry, IncomingMessage message) {
        int replyNumber = entry.reply(message);
        if (replyNumber == 0) {
            unmatched(entry.msgId, message, entry);
            return;
        }
        if (replyNumber == 1) {
            answered.increment();
        }
        long latencyMicros = Math.max(0, (message.receivedNanos() - entry.sentNanos) / 1000);
        answerRecords.increment();
        latencies.recordValue(latencyMicros);
        ReplySummary live = summary;
        if (live != null) {
            live.record(latencyMicros);
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
            extraReplies.increment();
        } else if (ids.isOurs(msgId)) {
            lateReplies.increment();
            long sentNanos = entry != null ? entry.sentNanos : recentlyLost.sentNanos(ids.sequenceOf(msgId));
            if (sentNanos != RecentlyLost.UNKNOWN) {
                lateMaxMicros.accumulate((message.receivedNanos() - sentNanos) / 1000);
            }
        } else {
            // An id another generator issued, or a header that only looks like one.
            untimed.increment();
        }
    }

    /** Ends every message whose deadline passed: LOST if unanswered, otherwise just forgotten. */
    void expire(long nowNanos) {
        for (Queue<MessageTiming> queue : expiryQueues.values()) {
            MessageTiming head;
            while ((head = queue.peek()) != null && head.deadlineNanos - nowNanos <= 0) {
                queue.poll();
                timeOut(head, DEADLINE_PASSED);
            }
        }
    }

    /**
     * Waits until no message awaits its first reply or its receipt and no further copy of a broadcast has arrived for
     * {@code lullMillis}, or for at most {@code maxWaitMillis}.
     *
     * @return true if it got quiet in time
     */
    public boolean awaitQuiet(long maxWaitMillis, long lullMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        long lullNanos = TimeUnit.MILLISECONDS.toNanos(lullMillis);
        long records = answerRecords.sum();
        long quietSince = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            long latest = answerRecords.sum();
            if (latest != records) {
                records = latest;
                quietSince = now;
            }
            if (outstanding() == 0 && receipts.pending() == 0 && now - quietSince >= lullNanos) {
                return true;
            }
            if (now - deadline >= 0) {
                return false;
            }
            Thread.sleep(QUIET_POLL_MILLIS);
        }
    }

    /** Messages still waiting for their first reply. */
    public long outstanding() {
        return books().pending();
    }

    /** Ends every message still waiting as LOST with the given reason (the test ended). */
    public void abandonAll(String reason) {
        for (Queue<MessageTiming> queue : expiryQueues.values()) {
            MessageTiming entry;
            while ((entry = queue.poll()) != null) {
                timeOut(entry, reason);
            }
        }
    }

    /** A message whose deadline passed (or whose test ended): LOST if unanswered, otherwise just forgotten. */
    private void timeOut(MessageTiming entry, String reason) {
        known.remove(entry.msgId, entry);
        noReceipt(entry);
        lose(entry, reason);
    }

    private void lose(MessageTiming entry, String reason) {
        if (entry.end(MessageTiming.LOST)) {
            lost.increment();
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
        feed.offer(record);
    }

    public Books books() {
        long s = sent.sum();
        long a = answered.sum();
        long l = lost.sum();
        long f = failed.sum();
        return new Books(
                s,
                a,
                l,
                f,
                Math.max(0, s - a - l - f),
                answerRecords.sum(),
                extraReplies.sum(),
                lateReplies.sum(),
                lateMaxMicros.get(),
                untimed.sum(),
                receipts.asked(),
                receipts.received(),
                receipts.missing(),
                receipts.late());
    }

    /** Starts this run's live summary (two lines an interval), stopping any earlier; interval <= 0 or null stops. */
    public synchronized ReplySummary summarizeEvery(long intervalSeconds, Consumer<String> out) {
        ReplySummary previous = summary;
        summary = intervalSeconds > 0 && out != null ? new ReplySummary(this, intervalSeconds, out) : null;
        if (previous != null) {
            previous.close();
        }
        return summary;
    }

    /** Writes the summary lines for the time since the last ones, then stops the summary. */
    public synchronized void endSummary() {
        ReplySummary last = summary;
        summary = null;
        if (last != null) {
            last.close();
            last.report();
        }
    }

    /** A copy of the latency histogram (microseconds) since the last reset. */
    public Histogram latencySnapshot() {
        return latencies.copy();
    }

    /** A copy of the receipt latency histogram (microseconds). */
    public Histogram receiptLatencySnapshot() {
        return receipts.latencySnapshot();
    }

    /** Stops the expiry sweep: the run is over. */
    void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "ReplyTracker[" + ids.prefix() + ", " + books() + "]";
    }
}
