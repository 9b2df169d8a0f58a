package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.OutgoingMessage;
import java.time.Instant;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Matches replies to sent messages across every session of the JVM (echo: the same session; chat and
 * broadcast: others) and keeps the books. One per JVM: a reply may reach any user.
 *
 * <p>Expiry costs O(1) per message: messages with the same timeout expire in send order, so each timeout has
 * a FIFO queue and the sweeper only looks at heads.
 */
public final class ReplyTracker {

    private static final long SWEEP_MILLIS = 20;
    private static volatile ReplyTracker shared;

    private final MessageIds ids;
    private final Map<String, PendingMessage> pending = new ConcurrentHashMap<>();
    private final Map<Long, Queue<PendingMessage>> expiryQueues = new ConcurrentHashMap<>();
    private final LongAdder sent = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder answerRecords = new LongAdder();
    private final LongAdder lateReplies = new LongAdder();
    private final LongAdder untimed = new LongAdder();
    /** Microseconds; auto-resizing, so no value is rejected. */
    private final ConcurrentHistogram latencies = new ConcurrentHistogram(3);
    private final ScheduledExecutorService sweeper;
    private volatile ReplySummary summary;

    ReplyTracker(MessageIds ids, boolean sweep) {
        this.ids = ids;
        if (sweep) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "stomp-reply-expiry");
                thread.setDaemon(true);
                return thread;
            });
            sweeper.scheduleWithFixedDelay(() -> expire(System.nanoTime()), SWEEP_MILLIS, SWEEP_MILLIS,
                    TimeUnit.MILLISECONDS);
        } else {
            sweeper = null;
        }
    }

    public static ReplyTracker shared() {
        ReplyTracker tracker = shared;
        if (tracker == null) {
            synchronized (ReplyTracker.class) {
                tracker = shared;
                if (tracker == null) {
                    tracker = new ReplyTracker(MessageIds.random(), true);
                    shared = tracker;
                }
            }
        }
        return tracker;
    }

    public MessageIds ids() {
        return ids;
    }

    /** Called just before the message is written; the clock starts here. */
    public PendingMessage register(OutgoingMessage message, long replyTimeoutMillis, int repliesExpected,
            TimingSink sink, boolean awaited) {
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(replyTimeoutMillis);
        Instant now = Instant.now();
        long sentEpochMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        PendingMessage entry = new PendingMessage(message.msgId(), message.sender(), message.destination(),
                message.payload().length, sentEpochMicros, System.nanoTime(), timeoutNanos, repliesExpected, sink,
                awaited);
        sent.increment();
        pending.put(entry.msgId, entry);
        expiryQueues.computeIfAbsent(timeoutNanos, t -> new ConcurrentLinkedQueue<>()).add(entry);
        return entry;
    }

    public void fail(PendingMessage entry, String reason) {
        if (entry.end(PendingMessage.FAILED)) {
            failed.increment();
            pending.remove(entry.msgId, entry);
            emit(entry, new TimingRecord(entry.sentEpochMicros, TimingRecord.Outcome.FAILED, entry.msgId, -1,
                    entry.sender, "", entry.destination, entry.bytes, reason, entry.awaited()));
        }
    }

    /** Records a reply found to carry {@code msgId} (null when no id was found). */
    public void reply(String msgId, IncomingMessage message) {
        if (msgId == null) {
            untimed.increment();
            return;
        }
        PendingMessage entry = pending.get(msgId);
        if (entry != null && message.receivedNanos() - entry.deadlineNanos > 0) {
            // Past its deadline: late, whether or not the sweep has come round to the message yet.
            timeOut(entry);
            lateReplies.increment();
            return;
        }
        int replyNumber = entry == null ? 0 : entry.reply(message);
        if (replyNumber == 0) {
            if (ids.isOurs(msgId)) {
                lateReplies.increment();
            } else {
                // An id another generator issued, or a header that only looks like one.
                untimed.increment();
            }
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
        if (entry.complete()) {
            pending.remove(msgId, entry);
        }
        emit(entry, new TimingRecord(entry.sentEpochMicros, TimingRecord.Outcome.ANSWERED, msgId,
                latencyMicros, entry.sender, message.receiver(), entry.destination, message.payload().length, "",
                entry.awaited()));
    }

    /** Ends every message whose deadline passed: LOST if unanswered, otherwise just forgotten. */
    void expire(long nowNanos) {
        for (Queue<PendingMessage> queue : expiryQueues.values()) {
            PendingMessage head;
            while ((head = queue.peek()) != null && head.deadlineNanos - nowNanos <= 0) {
                queue.poll();
                timeOut(head);
            }
        }
    }

    /**
     * Waits until no message awaits its first reply and no further copy of a broadcast has arrived for
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
            if (outstanding() == 0 && now - quietSince >= lullNanos) {
                return true;
            }
            if (now - deadline >= 0) {
                return false;
            }
            Thread.sleep(SWEEP_MILLIS);
        }
    }

    /** Messages still waiting for their first reply. */
    public long outstanding() {
        Books books = books();
        return books.pending();
    }

    /** Ends every message still waiting as LOST with the given reason (the test ended). */
    public void abandonAll(String reason) {
        for (Queue<PendingMessage> queue : expiryQueues.values()) {
            PendingMessage entry;
            while ((entry = queue.poll()) != null) {
                pending.remove(entry.msgId, entry);
                lose(entry, reason);
            }
        }
    }

    /** A message whose deadline passed: LOST if unanswered, otherwise just forgotten. */
    private void timeOut(PendingMessage entry) {
        pending.remove(entry.msgId, entry);
        lose(entry, "timeout");
    }

    private void lose(PendingMessage entry, String reason) {
        if (entry.end(PendingMessage.LOST)) {
            lost.increment();
            emit(entry, new TimingRecord(entry.sentEpochMicros, TimingRecord.Outcome.LOST, entry.msgId, -1,
                    entry.sender, "", entry.destination, entry.bytes, reason, entry.awaited()));
        }
    }

    /** A finished message goes to its sender's timing log and, when a replies sampler runs, to its feed. */
    private static void emit(PendingMessage entry, TimingRecord record) {
        entry.sink.record(record);
        ReplyFeed.shared().offer(record);
    }

    public Books books() {
        long s = sent.sum();
        long a = answered.sum();
        long l = lost.sum();
        long f = failed.sum();
        return new Books(s, a, l, f, Math.max(0, s - a - l - f), answerRecords.sum(), lateReplies.sum(),
                untimed.sum());
    }

    /**
     * Starts the live summary lines of this run (one pair per interval to {@code out}); any earlier summary
     * stops. Null or a non-positive interval stops it.
     */
    public synchronized void summarizeEvery(long intervalSeconds, java.util.function.Consumer<String> out) {
        ReplySummary previous = summary;
        summary = intervalSeconds > 0 && out != null ? new ReplySummary(this, intervalSeconds, out) : null;
        if (previous != null) {
            previous.close();
        }
    }

    /** Writes the summary lines for the time since the last ones now, as the interval timer does. */
    synchronized void reportSummary() {
        ReplySummary live = summary;
        if (live != null) {
            live.report();
        }
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

    /** Starts new books for a new test run in the same JVM (JMeter's GUI runs many). */
    public void reset() {
        abandonAll("test-ended");
        sent.reset();
        answered.reset();
        lost.reset();
        failed.reset();
        answerRecords.reset();
        lateReplies.reset();
        untimed.reset();
        latencies.reset();
    }

    @Override
    public String toString() {
        return "ReplyTracker[" + ids.prefix() + ", " + books() + "]";
    }
}
