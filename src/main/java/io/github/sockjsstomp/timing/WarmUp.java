package io.github.sockjsstomp.timing;

import com.sun.management.OperatingSystemMXBean;
import io.github.sockjsstomp.client.LoopbackStompPeer;
import io.github.sockjsstomp.client.SendFailedException;
import io.github.sockjsstomp.client.SharedStompClients;
import io.github.sockjsstomp.client.StepResult;
import io.github.sockjsstomp.client.Template;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.TransportProbe;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.VirtualUser;
import io.github.sockjsstomp.client.WebLogin;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms the generator's own per-message code before a test's first timed message: without it the first
 * thousand or two messages of a run are timed through interpreted and half-compiled code (on the wire, the
 * generator's share of a reply's latency was several milliseconds at p99 in a 25 s run). Once per JVM and
 * transport, one virtual user sends timed messages to a {@link LoopbackStompPeer} in this JVM, through the
 * same classes a run uses: {@link UserTiming}, a {@link ReplyTracker}, a {@link TimingLog}, the shared STOMP
 * clients and their I/O lanes. Nothing goes to the server under test, and nothing reaches a run's books or
 * timing logs: the tracker is a throwaway one and the log a temporary file, deleted at the end.
 *
 * <p>Bounded by a message count and a time limit, whichever comes first: the JIT compiles a method after
 * some thousands of calls, so a few thousand round trips are what it takes.
 */
public final class WarmUp {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);
    /**
     * Round trips per transport: the per-message path leaves the interpreter for C1's profiled code (tier 3),
     * and C2 takes the hottest of it; the rest reaches C2 during the test, whose thresholds grow with its queue,
     * full at the start of a JVM (measured with -XX:+PrintCompilation on 2 cores: bench/RESULTS.md).
     */
    public static final int DEFAULT_MESSAGES = 10_000;
    /** For the messages; then up to {@link #SETTLE_LIMIT_MILLIS} for the JIT to finish compiling. */
    public static final long DEFAULT_LIMIT_MILLIS = 1_500;

    private static final long SETTLE_LIMIT_MILLIS = 500;
    private static final long SETTLE_QUIET_MILLIS = 30;
    /** Messages in flight: the sender, the I/O lane and the peer then overlap, as under load. */
    private static final int WINDOW = 32;

    private static final String DESTINATION = "/app/warm-up";
    private static final Template PAYLOAD = Template.parse(
            "{\"id\":\"{{msgId}}\",\"seq\":{{seq}},\"user\":\"{{user}}\",\"text\":\"hello\"}", Template.PAYLOAD);
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
                Result result = run(shared, kind, heartbeatMillis, messages, limitMillis);
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

    /** One warm-up over {@code transport}, whatever ran before. */
    static Result run(
            SharedStompClients shared, Transport transport, long heartbeatMillis, int messages, long limitMillis) {
        long startNanos = System.nanoTime();
        long startCpu = processCpuNanos();
        long deadline = startNanos + TimeUnit.MILLISECONDS.toNanos(limitMillis);
        long sent = 0;
        long answered = 0;
        String problem = null;
        Path file = null;
        ReplyTracker tracker = new ReplyTracker(MessageIds.random(), new ReplyFeed(1));
        ExpirySweeper sweeper = ExpirySweeper.start(tracker);
        try (LoopbackStompPeer peer = new LoopbackStompPeer()) {
            file = Files.createTempFile("stomp-warm-up-", ".csv");
            VirtualUser user = new VirtualUser(
                    shared,
                    settings(peer.port(), transport, heartbeatMillis),
                    new TransportProbe(shared.httpClient(), (int) limitMillis));
            TimingLog sink = new TimingLog(file, "warm-up", "warm-up", reason -> {});
            try {
                StepResult connected = user.connect();
                StepResult subscribed = connected.ok() ? user.subscribe("/queue/warm-up") : connected;
                if (!subscribed.ok()) {
                    problem = subscribed.message();
                } else {
                    UserTiming timing = UserTiming.attach(user, tracker, options(), sink);
                    while (sent < messages && going(deadline)) {
                        while (sent - user.messagesReceived() >= WINDOW && going(deadline)) {
                            LockSupport.parkNanos(20_000);
                        }
                        timing.send(DESTINATION, Map.of(), PAYLOAD);
                        sent++;
                    }
                    answered = awaitAnswers(tracker, sent, deadline);
                    settle(deadline + TimeUnit.MILLISECONDS.toNanos(SETTLE_LIMIT_MILLIS));
                }
            } finally {
                user.close();
                sink.close();
            }
        } catch (IOException | SendFailedException e) {
            problem = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (Thread.currentThread().isInterrupted()) {
                problem = "interrupted (the test was stopped)";
            }
            sweeper.close();
            deleteQuietly(file);
        }
        return new Result(
                transport,
                sent,
                answered,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                TimeUnit.NANOSECONDS.toMillis(processCpuNanos() - startCpu),
                problem);
    }

    /** The tracker's count of answers, not the user's of replies: a reply is received before it is matched. */
    private static long awaitAnswers(ReplyTracker tracker, long sent, long deadline) {
        long answered;
        while ((answered = tracker.books().answered()) < sent && going(deadline)) {
            LockSupport.parkNanos(100_000);
        }
        return answered;
    }

    /**
     * Waits until the JIT has finished what the warm-up queued (no compile completed for a while), so that its
     * compiler threads do not compete with the test's first messages for the cores.
     */
    private static void settle(long deadlineNanos) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long before = jit.getTotalCompilationTime();
        while (going(deadlineNanos)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(SETTLE_QUIET_MILLIS));
            long now = jit.getTotalCompilationTime();
            if (now == before) {
                return;
            }
            before = now;
        }
    }

    /** Until the time limit, or until the test is stopped (JMeter interrupts its threads). */
    private static boolean going(long deadlineNanos) {
        return System.nanoTime() - deadlineNanos < 0 && !Thread.currentThread().isInterrupted();
    }

    /** Like send.jmx's: the id in a header and in the body, one reply per message. */
    private static TimingOptions options() {
        return new TimingOptions(
                5_000, 1, SendMode.FIRE_AND_FORGET, TimingOptions.DEFAULT_ID_HEADER, null, true, false);
    }

    /** The run's heart-beat: with it on, the session's send and receive paths take other branches. */
    private static UserSettings settings(int port, Transport transport, long heartbeatMillis) {
        return new UserSettings(
                "warm-up",
                1,
                1,
                UserSettings.Credentials.NONE,
                new UserSettings.Server("http", "127.0.0.1", port, "/warm-up", transport),
                WebLogin.NONE,
                new UserSettings.ConnectOptions(Map.of(), heartbeatMillis, 5_000));
    }

    /** All threads' CPU: the warm-up's cost is on the sender, the I/O lane, the peer and the JIT's compilers. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("Could not delete warm-up file {}: {}", file, e.toString());
        }
    }
}
