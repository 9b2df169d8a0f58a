package io.github.sockjsstomp.timing;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * The run's counts of messages, replies and receipts and its reply latencies, which its {@link Books} are read
 * from at any time, and the live summary its interval's latencies. Counted on every thread that ends a message
 * (senders, I/O threads, the sweeper), so every count is a {@link LongAdder} and the latencies are recorded per
 * thread ({@link ThreadLatencies}): no lock, no contended write.
 */
final class ReplyCounts {

    private final LongAdder sent = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder answerRecords = new LongAdder();
    private final LongAdder extraReplies = new LongAdder();
    private final LongAdder lateReplies = new LongAdder();
    /** The longest send-to-reply time of a late reply. */
    private final LongAccumulator lateMaxMicros = new LongAccumulator(Math::max, 0);

    private final LongAdder untimed = new LongAdder();
    private final LongAdder redeliveries = new LongAdder();
    /** The longest time from a message's first delivery to its delivery again. */
    private final LongAccumulator redeliveryMaxMicros = new LongAccumulator(Math::max, 0);
    /** Microseconds, recorded by each thread apart (a run's I/O threads answer at once). */
    private final ThreadLatencies latencies = new ThreadLatencies();

    private final ReceiptBooks receipts = new ReceiptBooks();
    /** The live summary, if one runs: it reads the counts, nothing writes to it. */
    private volatile ReplySummary summary;

    void sent() {
        sent.increment();
    }

    /** An ANSWERED record: the message's first ({@code first}) or a further reply it expected. */
    void answer(boolean first, long latencyMicros) {
        if (first) {
            answered.increment();
        }
        answerRecords.increment();
        latencies.record(latencyMicros);
    }

    void lost() {
        lost.increment();
    }

    void failed() {
        failed.increment();
    }

    /** A copy beyond the replies its message expects. */
    void extraReply() {
        extraReplies.increment();
    }

    /** A reply after its message was LOST, {@code micros} after its send; {@code measured} false if unknown. */
    void lateReply(boolean measured, long micros) {
        lateReplies.increment();
        if (measured) {
            lateMaxMicros.accumulate(micros);
        }
    }

    /**
     * A message delivered again, {@code micros} after its first delivery; {@code measured} false if that is not
     * known.
     */
    void redelivery(boolean measured, long micros) {
        redeliveries.increment();
        if (measured) {
            redeliveryMaxMicros.accumulate(micros);
        }
    }

    /** A message that carries no id of ours. */
    void untimed() {
        untimed.increment();
    }

    ReceiptBooks receipts() {
        return receipts;
    }

    /** ANSWERED records so far: the drain waits until no more come. */
    long answerRecords() {
        return answerRecords.sum();
    }

    Books books() {
        long s = sent.sum();
        long a = answered.sum();
        long l = lost.sum();
        long f = failed.sum();
        return Books.builder()
                .sent(s)
                .answered(a)
                .lost(l)
                .failed(f)
                .pending(Math.max(0, s - a - l - f))
                .answerRecords(answerRecords.sum())
                .extraReplies(extraReplies.sum())
                .lateReplies(lateReplies.sum())
                .lateMaxMicros(lateMaxMicros.get())
                .untimed(untimed.sum())
                .redeliveries(redeliveries.sum())
                .redeliveryMaxMicros(redeliveryMaxMicros.get())
                .receiptsAsked(receipts.asked())
                .receipts(receipts.received())
                .noReceipts(receipts.missing())
                .lateReceipts(receipts.late())
                .build();
    }

    /** A copy of the latency histogram (microseconds). */
    Histogram latencySnapshot() {
        return latencies.copy();
    }

    /** The latencies (microseconds) answered since the last call: the live summary's interval. */
    Histogram recentLatencies() {
        return latencies.takeRecent();
    }

    /**
     * Starts the live summary of these counts (two lines an interval), stopping any earlier; interval <= 0 or null
     * stops.
     */
    synchronized ReplySummary summarizeEvery(
            long intervalSeconds, Consumer<String> out, Refusals refusals, Supplier<String> more) {
        ReplySummary previous = summary;
        latencies.takeRecent(); // a new summary's first interval begins now
        summary = intervalSeconds > 0 && out != null
                ? new ReplySummary(this, refusals, intervalSeconds, out, more)
                : null;
        if (previous != null) {
            previous.close();
        }
        return summary;
    }

    /**
     * Writes the two summary lines for the time since the last ones, then stops the summary; the third line (what
     * else the run counts) is the run's end line's to say, once.
     */
    synchronized void endSummary() {
        ReplySummary last = summary;
        summary = null;
        if (last != null) {
            last.close();
            last.reportLast();
        }
    }
}
