package io.github.sockjsstomp.warmup;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms the generator's own per-message code before a test's first timed message: without it the first
 * thousand or two messages of a run are timed through interpreted and half-compiled code (on the wire, the
 * generator's share of a reply's latency was several milliseconds at p99 in a 25 s run). Once per JVM and
 * transport, one virtual user sends timed messages to a {@link LoopbackStompPeer} in this JVM ({@link WarmUpRun}).
 * This class decides when: once per JVM and transport kind, the other threads' setups waiting meanwhile.
 */
public final class WarmUp {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);
    /**
     * Round trips per transport: the per-message path leaves the interpreter for C1's profiled code (tier 3),
     * and C2 takes the hottest of it; the rest reaches C2 during the test, whose thresholds grow with its queue,
     * full at the start of a JVM (measured with -XX:+PrintCompilation on 2 cores: bench/RESULTS.md).
     */
    public static final int DEFAULT_MESSAGES = 10_000;
    /** For the messages; then up to {@link WarmUpRun#SETTLE_LIMIT_MILLIS} for the JIT to finish compiling. */
    public static final long DEFAULT_LIMIT_MILLIS = 1_500;

    private static final Set<Transport> WARMED = EnumSet.noneOf(Transport.class);

    /** What one warm-up did. */
    public record Result(Transport transport, long sent, long answered, long millis, long cpuMillis, String problem) {
        @Override
        public String toString() {
            return "Warm-up over " + transport + ": " + sent + " messages sent, " + answered + " answered, in "
                    + millis + " ms (" + cpuMillis + " ms of CPU) against an in-process peer, nothing sent to the "
                    + "server under test" + (problem == null ? "" : "; stopped early: " + problem);
        }
    }

    private WarmUp() {}

    /**
     * Warms the paths {@code transport} uses with the run's {@code heartbeatMillis}, unless this JVM did already;
     * callers wait meanwhile, so no thread times a message before it ends. XHR transports are not warmed (a
     * thread and an HTTP request per send: their cost is not the JIT's); {@code auto} warms both kinds it may
     * choose.
     *
     * @return what was done, one per transport warmed now; empty when there was nothing to do
     */
    public static synchronized List<Result> once(
            SharedStompClients shared, Transport transport, long heartbeatMillis, int messages, long limitMillis) {
        List<Transport> kinds = switch (transport) {
            case RAW -> List.of(Transport.RAW);
            case WEBSOCKET -> List.of(Transport.WEBSOCKET);
            case AUTO -> List.of(Transport.WEBSOCKET, Transport.RAW);
            case XHR, XHR_STREAMING -> List.of();
        };
        List<Result> results = new ArrayList<>();
        for (Transport kind : kinds) {
            if (WARMED.add(kind)) {
                Result result = WarmUpRun.run(shared, kind, heartbeatMillis, messages, limitMillis);
                if (result.problem() == null) {
                    log.info("{}", result);
                } else {
                    log.warn("{}", result);
                }
                results.add(result);
            }
        }
        if (!results.isEmpty() && !Thread.currentThread().isInterrupted()) {
            collectGarbage();
        }
        return results;
    }

    /**
     * Collects the warm-up's garbage now (some 100-200 MB: a young collection or two of a default heap), so that
     * the test's first seconds do not pay a collection of it (a young pause was 10-20 ms on 2 cores: a p99 of
     * its own in a short run). A full collection of a heap that has just started is tens of milliseconds; it is
     * nothing with {@code -XX:+DisableExplicitGC}.
     */
    private static void collectGarbage() {
        long start = System.nanoTime();
        System.gc();
        log.info("Warm-up: its garbage collected in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }
}
