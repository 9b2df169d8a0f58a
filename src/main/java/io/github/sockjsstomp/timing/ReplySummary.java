package io.github.sockjsstomp.timing;

import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * The replies of a run as JMeter's summariser shows samples, live: every interval one line for the interval
 * ({@code +}) and one for the run so far ({@code =}) with answered, lost and failed messages and reply-latency
 * percentiles. JMeter's own summary counts samples; in fire-and-forget a sample is only the send, so without
 * this line a run shows no reply at all until it ends. A third line, when there is one, says what else the run
 * counts live (the consumers' acknowledgements: the messages they hold unacknowledged).
 */
public final class ReplySummary implements AutoCloseable {

    private final ReplyCounts counts;
    private final Refusals refusals;
    private final Histogram total = new Histogram(3);
    private final Consumer<String> out;
    /** The third line, null when there is none. */
    private final Supplier<String> more;

    private final ScheduledExecutorService timer;
    private final long startNanos = System.nanoTime();
    private Books last = Books.builder().build();
    private long lastNanos = startNanos;
    private long lastRefusals;

    ReplySummary(
            ReplyCounts counts, Refusals refusals, long intervalSeconds, Consumer<String> out, Supplier<String> more) {
        this.counts = counts;
        this.refusals = refusals;
        this.out = out;
        this.more = more;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "stomp-reply-summary");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::report, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
    }

    /** The lines for the time since the last report; one set of lines per call. */
    void report() {
        report(true);
    }

    /**
     * The two lines for the time since the last report, without the third: at the run's end the run writes that one
     * itself, after its sessions closed (what they left unacknowledged is counted by then), and a second copy a
     * line apart would be read as two figures.
     */
    void reportLast() {
        report(false);
    }

    private synchronized void report(boolean withMore) {
        long now = System.nanoTime();
        Histogram recent = counts.recentLatencies();
        total.add(recent);
        Books books = counts.books();
        long refused = refusals.count();
        // the third line is the acknowledging consumers': with them, a late delivery may be their own pace
        String third = more.get();
        // nothing sent yet: a plan that sends nothing (the connect test) has no replies to sum up, and lines of zeros
        // beside JMeter's summary read as if its messages were lost
        if (books.sent() > 0 || refused > 0 || third != null) {
            String behind = third == null ? SERVER_BEHIND : CONSUMERS_OR_SERVER_BEHIND;
            out.accept(line("+", delta(books, last), refused - lastRefusals, recent, now - lastNanos, behind));
            out.accept(line("=", books, refused, total, now - startNanos, behind));
            if (withMore && third != null) {
                out.accept(third);
            }
        }
        lastRefusals = refused;
        last = books;
        lastNanos = now;
    }

    /** What an interval's line shows: the counts it added, and the pending messages and longest lateness now. */
    private static Books delta(Books now, Books before) {
        return Books.builder()
                .sent(now.sent() - before.sent())
                .answered(now.answered() - before.answered())
                .lost(now.lost() - before.lost())
                .failed(now.failed() - before.failed())
                .pending(now.pending())
                .lateReplies(now.lateReplies() - before.lateReplies())
                .lateMaxMicros(now.lateMaxMicros())
                .redeliveries(now.redeliveries() - before.redeliveries())
                .build();
    }

    /** Why replies came after their message was LOST, with no consumer of ours that acknowledges. */
    static final String SERVER_BEHIND = "the server fell behind";
    /**
     * The same where consumers acknowledge: a consumer slower than its messages (consumeMillis, consume steps) keeps
     * the rest at the broker with a prefetch, and they come late through no fault of the server's.
     */
    static final String CONSUMERS_OR_SERVER_BEHIND = "the consumers or the server fell behind";

    /**
     * @param refusals ERROR frames on open sessions in the line's time: the server refused frames
     * @param behind who fell behind, where replies came after their message was LOST
     */
    static String line(String kind, Books books, long refusals, Histogram latency, long elapsedNanos, String behind) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(elapsedNanos);
        String latencyText = latency.getTotalCount() == 0
                ? "no replies"
                : String.format(
                        Locale.ROOT,
                        "reply ms p50 %.2f p99 %.2f max %.2f",
                        Percentiles.higher(latency, 0.5) / 1000.0,
                        Percentiles.higher(latency, 0.99) / 1000.0,
                        latency.getMaxValue() / 1000.0);
        // A LOST message whose reply came after all was late, not lost: someone fell behind.
        String late = books.lateReplies() == 0
                ? ""
                : String.format(
                        Locale.ROOT,
                        " (%d replies came after their message was LOST%s: %s)",
                        books.lateReplies(),
                        books.lateMaxMicros() == 0
                                ? ""
                                : String.format(
                                        Locale.ROOT, ", up to %.1f s after the send", books.lateMaxMicros() / 1e6),
                        behind);
        return String.format(
                Locale.ROOT,
                "stomp replies %s %9d sent in %02d:%02d:%02d: answered %d, lost %d%s, failed %d, pending %d%s%s; %s",
                kind,
                books.sent(),
                seconds / 3600,
                seconds / 60 % 60,
                seconds % 60,
                books.answered(),
                books.lost(),
                late,
                books.failed(),
                books.pending(),
                refusals == 0 ? "" : ", refused by the server " + refusals + " (ERROR frames)",
                books.redeliveries() == 0 ? "" : ", delivered again " + books.redeliveries() + " (not answers)",
                latencyText);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
