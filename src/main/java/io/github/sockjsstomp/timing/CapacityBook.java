package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.user.SessionLoss;
import io.github.sockjsstomp.client.user.Silence;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The three figures of a connection-capacity test, for a whole run: sessions held at once (the peak),
 * connects per second, and how fast the server removes dead clients (silent sessions it closed per second,
 * and the time it took to notice each: p50, p99, max). Fed by every thread's users (connects and losses, on
 * JMeter threads) and by silent sessions (on scheduler and I/O threads), so every method is thread-safe.
 */
public final class CapacityBook implements Silence.Listener, SessionLoss.Listener {

    static final int MAX_CONNECT_FAILURE_CAUSES = 20;
    static final int MAX_AGREEMENTS = 10;
    static final String OTHER_AGREEMENTS = "other answers";

    private final ConcurrentLinkedQueue<Silence> silent = new ConcurrentLinkedQueue<>();
    /** From silent to closed by the server, in microseconds. */
    private final Histogram detection = new Histogram(3);
    /** Failed connects by cause (response code and message), each said once, counted, the counts said at the end. */
    private final CountedCauses connectFailures = new CountedCauses(MAX_CONNECT_FAILURE_CAUSES);

    /** The run's books per step: connects started in a step's hold. */
    private final StepWindows steps;

    private long connects;
    private long firstConnectNanos;
    private long lastConnectNanos;
    private long held;
    private long peak;
    /**
     * Sessions by what their WebSocket agreed on ({@code permessage-deflate; ...} or {@code none}), in the order first
     * seen; a few kinds in any run, bounded all the same.
     */
    private final Map<String, Long> agreed = new LinkedHashMap<>();

    /** Sessions lost (not closed by us), by why. */
    private final Map<SessionLoss, Long> losses = new EnumMap<>(SessionLoss.class);

    private long firstExpiryNanos;
    private long lastExpiryNanos;

    public CapacityBook() {
        this(new StepWindows());
    }

    CapacityBook(StepWindows steps) {
        this.steps = steps;
    }

    /** A connect that succeeded, from its start to CONNECTED: one more session held. */
    public synchronized void connected(long startNanos, long endNanos) {
        steps.connect(startNanos, endNanos, true);
        // connects under way at once are told in the order they finish, not the order they started
        if (connects++ == 0 || startNanos - firstConnectNanos < 0) {
            firstConnectNanos = startNanos;
        }
        if (connects == 1 || endNanos - lastConnectNanos > 0) {
            lastConnectNanos = endNanos;
        }
        peak = Math.max(peak, ++held);
    }

    /**
     * A session's WebSocket agreed on {@code extensions} (with compression: {@code permessage-deflate; ...}; without:
     * {@code none}); true the first time the run sees that answer, when the caller says it.
     */
    public synchronized boolean agreed(String extensions) {
        Long before = agreed.get(extensions);
        if (before == null && agreed.size() >= MAX_AGREEMENTS) {
            extensions = OTHER_AGREEMENTS;
            before = agreed.get(extensions);
        }
        agreed.put(extensions, before == null ? 1 : before + 1);
        return before == null;
    }

    /**
     * {@code websocket extensions: 1990 sessions permessage-deflate; client_max_window_bits=15, 10 none}: what the
     * run's sessions agreed on with the server; null when no WebSocket session opened.
     */
    public synchronized String agreementsLine() {
        if (agreed.isEmpty()) {
            return null;
        }
        List<String> kinds = agreed.entrySet().stream()
                .map(e -> e.getValue() + (e.getValue() == 1 ? " session " : " sessions ") + e.getKey())
                .toList();
        return "websocket extensions: " + String.join(", ", kinds);
    }

    /** Sessions by what their WebSocket agreed on, in the order first seen. */
    public synchronized Map<String, Long> agreements() {
        return new LinkedHashMap<>(agreed);
    }

    /**
     * A connect failed for {@code cause} (its response code and message); true the first time this cause is seen,
     * when the caller says it.
     */
    public boolean connectFailed(String cause) {
        long now = System.nanoTime();
        steps.connect(now, now, false);
        return connectFailures.add(cause);
    }

    /** The run's failed connects, one line per cause with its count ("12 x 403: ..."); empty when none failed. */
    public List<String> connectFailures() {
        return connectFailures.lines();
    }

    /** Sessions held now. */
    public synchronized long held() {
        return held;
    }

    /** A session that was held is gone (lost, closed). */
    public synchronized void ended() {
        held = Math.max(0, held - 1);
    }

    /**
     * A session was lost (its user told it as it learnt it; the sessions held drop when its thread sees it): counted
     * by cause for the run, and into the step whose hold it was lost in.
     */
    @Override
    public synchronized void sessionLost(SessionLoss cause, long epochMs, SessionLoss replaces) {
        losses.merge(cause, 1L, Long::sum);
        if (replaces != null) {
            losses.merge(replaces, -1L, Long::sum);
        }
        steps.sessionLost(cause, epochMs);
    }

    /** Sessions lost so far for {@code cause}. */
    public synchronized long lostTo(SessionLoss cause) {
        return losses.getOrDefault(cause, 0L);
    }

    @Override
    public void silent(Silence silence) {
        silent.add(silence);
    }

    @Override
    public synchronized void expired(Silence silence) {
        long now = silence.silentNanos() + silence.detectionNanos();
        if (detection.getTotalCount() == 0) {
            firstExpiryNanos = now;
        }
        lastExpiryNanos = now;
        detection.recordValue(TimeUnit.NANOSECONDS.toMicros(silence.detectionNanos()));
        held = Math.max(0, held - 1);
    }

    /** Every session of the run that went silent so far, in the order they did. */
    public List<Silence> silentSessions() {
        return List.copyOf(silent);
    }

    /** The run's figures in one line; null when nothing connected. */
    public synchronized String figures() {
        if (connects == 0) {
            return null;
        }
        String line = String.format(
                Locale.ROOT,
                "stomp sessions: %d held at peak; %d connects, %s",
                peak,
                connects,
                rate(connects, lastConnectNanos - firstConnectNanos, "connects/s"));
        line += lossesSaid();
        if (silent.isEmpty()) {
            return line;
        }
        long expired = detection.getTotalCount();
        String removal = expired == 0
                ? ""
                : String.format(
                        Locale.ROOT,
                        ", %s; detection ms p50 %.1f p99 %.1f " + "max %.1f",
                        rate(expired, lastExpiryNanos - firstExpiryNanos, "removed/s"),
                        Percentiles.higher(detection, 0.5) / 1000.0,
                        Percentiles.higher(detection, 0.99) / 1000.0,
                        detection.getMaxValue() / 1000.0);
        return line
                + String.format(
                        Locale.ROOT,
                        "; %d went silent: %d expired%s; %d not expired",
                        silent.size(),
                        expired,
                        removal,
                        silent.size() - expired);
    }

    /** {@code ; 6 lost: 6 to missed heart-beats}, or nothing when no session was lost. */
    private String lossesSaid() {
        long total = losses.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0) {
            return "";
        }
        List<String> causes = losses.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .map(e -> e.getValue() + " to " + e.getKey().description)
                .toList();
        return "; " + total + " lost: " + String.join(", ", causes);
    }

    /** Events per second over the span from the first to the last; none for a single event or no span. */
    private static String rate(long events, long spanNanos, String unit) {
        if (events < 2 || spanNanos <= 0) {
            return "no " + unit + " (" + (events < 2 ? "one event" : "no time between them") + ")";
        }
        return String.format(Locale.ROOT, "%.1f %s over %.2f s", events * 1e9 / spanNanos, unit, spanNanos / 1e9);
    }

    @Override
    public synchronized String toString() {
        return "CapacityBook[" + connects + " connects, " + held + " held, " + silent.size() + " silent]";
    }
}
