package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.timing.Books;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults between the samplers and the server, injected by a TCP proxy on loopback in front of the demo
 * server's plain WebSocket endpoint: a stalled server, heart-beats that stop arriving, a malformed frame, a
 * close with 1009, connections reset as by a killed server, and JMeter's Stop (interrupt) during a wait. Each
 * test ends by itself, its samples fail with a response code users can filter on, the timing log is complete
 * with sent = answered + lost + failed, and the JVM's sockets and threads return to their baseline before the
 * next test. Timeouts that would end a wait are far longer than the test where the fault must end it first.
 */
class FaultsIT {

    private static final String NEVER_MILLIS = "120000";
    private static final List<String> SHARED_POOLS = List.of(
            "stomp-connect-",
            "stomp-heartbeat-",
            "WebSocketClient-AsyncIO-",
            "http-nio-",
            "clientInboundChannel-",
            "clientOutboundChannel-",
            "brokerChannel-",
            "process reaper");

    /** The heart-beat test's client asks for 200 ms; the broker's own 10 s would make its loss take 30 s to see. */
    @RegisterExtension
    static final DemoServerExtension demo = DemoServerExtension.heartbeatingEveryMillis(1000);

    private static long baselineSockets;
    private static long baselineThreads;

    @TempDir
    Path dir;

    private FaultProxy proxy;
    private Path timingLog;
    /** Where a sample runs while the test injects its fault. */
    private ExecutorService background;

    @BeforeAll
    static void warmUpTheSharedClient() throws Exception {
        // The shared client's own threads (I/O, heart-beats, the reply expiry) are made by the first session.
        try (FaultProxy warmUp = new FaultProxy(demo.port());
                SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = params(warmUp.port(), "none");
            assertThat(harness.run(1, StompSendSampler::new, i -> p, 2).get(0))
                    .allSatisfy(r -> assertThat(r.isSuccessful()).isTrue());
        }
        baselineSockets = settled(FaultsIT::sockets);
        baselineThreads = settled(FaultsIT::threads);
    }

    @BeforeEach
    void startProxy() throws IOException {
        proxy = new FaultProxy(demo.port());
        timingLog = dir.resolve("timing.csv");
        background = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void sessionsSocketsAndThreadsAreGone() throws Exception {
        background.shutdownNow();
        assertThat(background.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        proxy.close();
        assertThat(awaitAtMost(FaultsIT::sockets, baselineSockets))
                .as(() -> "open sockets: " + socketList())
                .isLessThanOrEqualTo(baselineSockets);
        assertThat(awaitAtMost(FaultsIT::threads, baselineThreads))
                .as(() -> "live threads: " + threadNames())
                .isLessThanOrEqualTo(baselineThreads);
    }

    private static Map<String, String> params(int port, String timingLog) {
        Map<String, String> p = new HashMap<>();
        p.put("host", "127.0.0.1");
        p.put("port", Integer.toString(port));
        p.put("transport", "raw");
        p.put("endpoint", "/stomp-ws");
        p.put("indexPath", "none");
        p.put("pullPath", "none");
        p.put("login", "fault-{{userNumber}}");
        p.put("heartbeatMillis", "0");
        p.put("subscribeTo", "/user/queue/echo");
        p.put("mode", "await-reply");
        p.put("replyTimeoutMillis", NEVER_MILLIS);
        p.put("connectTimeoutMillis", "10000");
        p.put("timingLog", timingLog);
        return p;
    }

    private Map<String, String> params() {
        return params(proxy.port(), timingLog.toString());
    }

    @Test
    void aStalledServerLosesTheMessageAtTheReplyTimeoutAndTheSessionGoesOn() throws Exception {
        Map<String, String> p = params();
        p.put("replyTimeoutMillis", "500");
        try (SamplerHarness harness = new SamplerHarness(1)) {
            assertOk(only(harness.run(1, StompSendSampler::new, i -> p, 1)));
            proxy.stall();
            SampleResult stalled = harness.sampleAgain(0);
            assertThat(stalled.getResponseCode()).isEqualTo("ReplyTimeout");
            proxy.resume();
            assertOk(harness.sampleAgain(0));
            harness.endTest();
            assertBooks(harness, 3, 2, 1, 0);
        }
        assertThat(outcomes()).containsExactly("ANSWERED", "LOST", "ANSWERED");
    }

    @Test
    void heartBeatsThatStopArrivingEndTheWaitAsConnectionLost() throws Exception {
        Map<String, String> p = params();
        p.put("heartbeatMillis", "200");
        try (SamplerHarness harness = new SamplerHarness(1)) {
            assertOk(only(harness.run(1, StompSendSampler::new, i -> p, 1)));
            proxy.holdBackServer();
            SampleResult silent = harness.sampleAgain(0);
            assertThat(silent.getResponseCode()).as(silent.getResponseMessage()).isEqualTo("ConnectionLost");
            assertOk(harness.sampleAgain(0)); // on a new connection
            harness.endTest();
            assertBooks(harness, 3, 2, 0, 1);
        }
    }

    @Test
    void aMalformedFrameEndsTheSessionWithAClearFailureAndTheNextSampleReconnects() throws Exception {
        faultThenReconnect(
                () -> proxy.inject(FaultProxy.textFrame("NOT-A-COMMAND\nx:y\n\nbody\0")),
                "ConnectionLost",
                "NOT-A-COMMAND");
    }

    @Test
    void aCloseWithStatus1009IsReportedWithItsStatus() throws Exception {
        faultThenReconnect(
                () -> proxy.inject(FaultProxy.closeFrame(1009, "message too big")), "ConnectionLost", "1009");
    }

    @Test
    void connectionsResetAsByAKilledServerAreLostAndReconnected() throws Exception {
        faultThenReconnect(() -> proxy.resetAll(), "ConnectionLost", "");
    }

    /**
     * A session up and idle, then the fault; the next sample reports it (the reply it waits for can never come)
     * and the one after it connects again.
     */
    private void faultThenReconnect(Fault fault, String code, String inMessage) throws Exception {
        Map<String, String> p = params();
        try (SamplerHarness harness = new SamplerHarness(1)) {
            assertOk(only(harness.run(1, StompSendSampler::new, i -> p, 1)));
            Future<SampleResult> waiting = awaitingReply(harness); // the fault meets a message in flight
            fault.inject();
            SampleResult failed = waiting.get(60, TimeUnit.SECONDS);
            proxy.resume();
            assertThat(failed.getResponseCode()).as(failed.getResponseMessage()).isEqualTo(code);
            assertThat(failed.getResponseMessage()).contains(inMessage);
            assertOk(harness.sampleAgain(0));
            harness.endTest();
            assertBooks(harness, 3, 2, 0, 1);
        }
        assertThat(outcomes()).containsExactlyInAnyOrder("ANSWERED", "FAILED", "ANSWERED");
    }

    @Test
    void aReceiverWaitingForMessagesLearnsAtOnceThatItsSessionIsGone() throws Exception {
        Map<String, String> p = params();
        p.put("subscribeTo", "/user/queue/push");
        p.put("receiveTimeoutMillis", NEVER_MILLIS);
        p.put("triggerDestination", "/app/push");
        p.put("triggerPayload", "{\"count\":1,\"bytes\":10}");
        try (SamplerHarness harness = new SamplerHarness(1)) {
            assertOk(only(harness.run(1, StompReceiveSampler::new, i -> p, 1)));
            proxy.stall(); // the trigger goes nowhere: the receiver waits
            Future<SampleResult> waiting = background.submit(() -> harness.sampleAgain(0));
            proxy.awaitHeldClientWrite(); // the trigger: the receiver is waiting now
            proxy.resetAll();
            SampleResult lost = waiting.get(60, TimeUnit.SECONDS);
            proxy.resume();
            assertThat(lost.getResponseCode()).as(lost.getResponseMessage()).isEqualTo("ConnectionLost");
            assertOk(harness.sampleAgain(0));
            harness.endTest();
        }
    }

    @Test
    void stopInterruptsAWaitForAReplyAtOnce() throws Exception {
        Map<String, String> p = params();
        Books books;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            assertOk(only(harness.run(1, StompSendSampler::new, i -> p, 1)));
            Future<SampleResult> waiting = awaitingReply(harness);
            assertThat(harness.sampler(0).interrupt()).isTrue();
            SampleResult interrupted = waiting.get(60, TimeUnit.SECONDS);
            assertThat(interrupted.getResponseCode()).isEqualTo("Interrupted");
            // The send sampler's users are the session sampler's: Stop of the sender leaves them open until
            // teardown, so the server stays stalled until the test has ended (its reply must not come first).
            harness.endTest();
            books = harness.books();
            proxy.resume();
        }
        assertThat(books.sent()).isEqualTo(2);
        assertThat(books.answered()).isEqualTo(1);
        assertThat(books.balanced()).isTrue();
        assertThat(outcomes()).hasSize(2).startsWith("ANSWERED");
    }

    /** What a test does to the connections. */
    private interface Fault {
        void inject() throws IOException;
    }

    /** The next sample, in the background, once its message is in flight and its reply held back by a stall. */
    private Future<SampleResult> awaitingReply(SamplerHarness harness) throws InterruptedException {
        proxy.stall();
        Future<SampleResult> waiting = background.submit(() -> harness.sampleAgain(0));
        awaitPending(harness, 1);
        // Registered is not yet written: the fault must come after the SEND is on the wire, held by the stall.
        proxy.awaitHeldClientWrite();
        return waiting;
    }

    private static SampleResult only(List<List<SampleResult>> results) {
        assertThat(results).singleElement().asList().hasSize(1);
        return results.get(0).get(0);
    }

    private static void assertOk(SampleResult r) {
        assertThat(r.isSuccessful())
                .as(r.getResponseCode() + " " + r.getResponseMessage())
                .isTrue();
    }

    private static void assertBooks(SamplerHarness harness, long sent, long answered, long lost, long failed) {
        Books books = harness.books();
        assertThat(books.toString())
                .startsWith("sent=%d answered=%d lost=%d failed=%d pending=0".formatted(sent, answered, lost, failed));
    }

    /** Each record's outcome, in the order written. */
    private List<String> outcomes() throws IOException {
        List<String> lines = Files.readAllLines(timingLog, StandardCharsets.UTF_8);
        return lines.subList(1, lines.size()).stream()
                .map(line -> line.split(",", -1)[1])
                .toList();
    }

    /** Waits (bounded) until this many messages await their replies. */
    private static void awaitPending(SamplerHarness harness, long pending) throws InterruptedException {
        for (int i = 0; i < 600 && harness.books().pending() != pending; i++) {
            Thread.sleep(50);
        }
        assertThat(harness.books().pending()).isEqualTo(pending);
    }

    private static long sockets() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                        } catch (IOException e) {
                            return false; // closed while listing
                        }
                    })
                    .count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each open socket's line in /proc/net (by inode), to tell which one outlived its session. */
    private static String socketList() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            List<String> inodes = fds.map(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString();
                        } catch (IOException e) {
                            return "";
                        }
                    })
                    .filter(link -> link.startsWith("socket:["))
                    .map(link -> link.substring(8, link.length() - 1))
                    .toList();
            StringBuilder found = new StringBuilder();
            for (String table : List.of("tcp", "tcp6", "udp", "udp6", "unix")) {
                for (String line : Files.readAllLines(Path.of("/proc/net", table))) {
                    if (inodes.stream().anyMatch(inode -> line.matches(".*\\s" + inode + "(\\s.*|$)"))) {
                        found.append(table).append(": ").append(line.strip()).append('\n');
                    }
                }
            }
            return inodes + "\n" + found;
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String threadNames() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .sorted()
                .toList()
                .toString();
    }

    /**
     * Threads outside the pools that are shared and bounded whatever the sessions do: the connect pool (idle
     * threads end after a minute), Tomcat's client I/O group, and the demo server's own pools.
     */
    private static long threads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(name -> SHARED_POOLS.stream().noneMatch(name::startsWith))
                .count();
    }

    /** The value once it stays the same for half a second (bounded: 10 s). */
    private static long settled(Supplier<Long> value) throws InterruptedException {
        long last = value.get();
        for (int i = 0, same = 0; i < 200 && same < 10; i++) {
            Thread.sleep(50);
            long now = value.get();
            same = now == last ? same + 1 : 0;
            last = now;
        }
        return last;
    }

    /** The value once it is at most {@code limit}, or after a bounded wait (10 s) the last value seen. */
    private static long awaitAtMost(Supplier<Long> value, long limit) {
        long last = value.get();
        for (int i = 0; i < 200 && last > limit; i++) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            last = value.get();
        }
        return last;
    }
}
