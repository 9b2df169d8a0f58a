package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServer;
import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.timing.Books;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * ERROR frames from a broker that keeps the connection open afterwards (the demo server's strict broker
 * endpoint). The timeouts are far longer than the test: a sampler that waited for them instead of ending at
 * the ERROR would report ConnectTimeout, ReplyTimeout or ReceiveTimeout, not StompError.
 */
class StrictBrokerIT {

    private static final String LONG_TIMEOUT_MILLIS = "120000";

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    Path dir;

    private static Map<String, String> strict(String login, String passcode) {
        Map<String, String> params = new HashMap<>();
        params.put("host", "127.0.0.1");
        params.put("port", Integer.toString(demo.port()));
        params.put("transport", "raw");
        params.put("endpoint", "/stomp-strict");
        params.put("indexPath", "none");
        params.put("pullPath", "none");
        params.put("login", login);
        params.put("passcode", passcode);
        params.put("heartbeatMillis", "0");
        params.put("connectTimeoutMillis", LONG_TIMEOUT_MILLIS);
        return params;
    }

    private static SampleResult only(List<List<SampleResult>> results) {
        assertThat(results).singleElement().asList().hasSize(1);
        return results.get(0).get(0);
    }

    @Test
    void errorAnsweringConnectEndsTheConnectAtOnceWithTheServersMessageAndBody() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            SampleResult r = only(harness.run(1, StompConnectSampler::new, i -> strict("guest", "reject-open"), 1));
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("StompError");
            assertThat(r.getResponseMessage()).isEqualTo("Bad CONNECT: Access refused for user 'guest'");
            assertThat(r.getSubResults())
                    .extracting(SampleResult::getSampleLabel)
                    .containsExactly("connect");
        }
    }

    @Test
    void errorWithoutMessageOrBodyStillEndsTheConnect() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            SampleResult r = only(harness.run(1, StompConnectSampler::new, i -> strict("guest", "reject-bare"), 1));
            assertThat(r.getResponseCode()).isEqualTo("StompError");
            assertThat(r.getResponseMessage()).isEqualTo("ERROR frame without message or body");
        }
    }

    @Test
    void errorAnsweringSendEndsTheAwaitedReplyAndTheMessageIsFailed() throws Exception {
        Path timingLog = dir.resolve("send-error.csv");
        Books books;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = strict("guest", "guest");
            p.put("subscribeTo", "/queue/echo");
            p.put("destination", "/app/fail");
            p.put("payload", "order {{seq}}");
            p.put("mode", "await-reply");
            p.put("replyTimeoutMillis", LONG_TIMEOUT_MILLIS);
            p.put("timingLog", timingLog.toString());
            SampleResult r = only(harness.run(1, StompSendSampler::new, i -> p, 1));
            assertThat(r.getResponseCode()).isEqualTo("StompError");
            assertThat(r.getResponseMessage()).isEqualTo("Bad SEND: Refused: order 1");
            harness.endTest();
            books = harness.books();
        }
        assertThat(books.sent()).isEqualTo(1);
        assertThat(books.failed()).isEqualTo(1);
        List<String> lines = Files.readAllLines(timingLog, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains(",FAILED,").contains("StompError: Bad SEND: Refused: order 1");
    }

    @Test
    void errorAnsweringSubscribeEndsTheReceiversWait() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = strict("guest", "guest");
            p.put("subscribeTo", "/queue/forbidden");
            p.put("receiveTimeoutMillis", LONG_TIMEOUT_MILLIS);
            SampleResult r = only(harness.run(1, StompReceiveSampler::new, i -> p, 1));
            assertThat(r.getResponseCode()).isEqualTo("StompError");
            assertThat(r.getResponseMessage()).startsWith("Access denied: Subscription to /queue/forbidden refused");
        }
    }

    @Test
    void messagesWithEmptyBodiesArriveAndAreTimed() throws Exception {
        Path timingLog = dir.resolve("empty.csv");
        Books books;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = strict("guest", "guest");
            p.put("subscribeTo", "/queue/echo");
            p.put("destination", "/queue/echo");
            p.put("payload", "");
            p.put("mode", "await-reply");
            p.put("timingLog", timingLog.toString());
            List<SampleResult> results =
                    harness.run(1, StompSendSampler::new, i -> p, 3).get(0);
            assertThat(results).allSatisfy(r -> {
                assertThat(r.isSuccessful())
                        .as(r.getResponseCode() + " " + r.getResponseMessage())
                        .isTrue();
                assertThat(r.getResponseData()).isEmpty();
            });
            harness.endTest();
            books = harness.books();
        }
        assertThat(books.answered()).isEqualTo(3);
    }

    @Test
    void aConnectGivenUpOnClosesItsConnection() throws Exception {
        int before = DemoServer.strictBrokerOpenSessions();
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = strict("guest", "no-answer");
            p.put("connectTimeoutMillis", "300");
            SampleResult r = only(harness.run(1, StompConnectSampler::new, i -> p, 1));
            assertThat(r.getResponseCode()).isEqualTo("ConnectTimeout");
            // The session is still held by the sampler: only the abandoned connect may close it.
            assertThat(awaitOpenSessions(before)).isEqualTo(before);
        }
    }

    /**
     * Two users on a thread connect on no lane (a plain WebSocket, no login steps): no thread waits for them, and
     * their connect timeout is a timer of the heart-beats' wheels, which gives each up as a blocking wait would.
     */
    @Test
    void connectsOnNoLaneTimeOutAndCloseTheirConnectionsToo() throws Exception {
        int before = DemoServer.strictBrokerOpenSessions();
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = strict("guest", "no-answer");
            p.put("connectTimeoutMillis", "300");
            p.put("sessionsPerThread", "2");
            List<SampleResult> results =
                    harness.run(1, StompConnectSampler::new, i -> p, 2).get(0);
            assertThat(results)
                    .hasSize(2)
                    .allSatisfy(r -> assertThat(r.getResponseCode())
                            .as(r.getResponseMessage())
                            .isEqualTo("ConnectTimeout"));
            assertThat(results)
                    .allSatisfy(r -> assertThat(r.getResponseMessage()).contains("within 300 ms"));
            assertThat(awaitOpenSessions(before)).isEqualTo(before);
        }
    }

    @Test
    void interruptEndsAnAwaitedReplyAtOnce() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = strict("guest", "guest");
            p.put("subscribeTo", "/queue/echo");
            p.put("destination", "/queue/nobody-listens");
            p.put("mode", "await-reply");
            p.put("replyTimeoutMillis", LONG_TIMEOUT_MILLIS);
            p.put("timingLog", "none");
            harness.run(1, StompSendSampler::new, i -> p, 0);
            long sentBefore = harness.books().sent();
            assertThat(sentBefore).isZero();
            CompletableFuture<SampleResult> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return harness.sampleAgain(0);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitSent(harness, sentBefore + 1);
            harness.sampler(0).interrupt();
            SampleResult r = waiting.get(60, TimeUnit.SECONDS);
            assertThat(r.getResponseCode()).isEqualTo("Interrupted");
            // The interrupt was ours: the thread goes on sampling.
            assertThat(harness.onThread(() -> Thread.currentThread().isInterrupted()))
                    .isFalse();
        }
    }

    /** Polls (bounded) until the strict broker's open connections fall to {@code expected}; returns the last count. */
    private static int awaitOpenSessions(int expected) throws InterruptedException {
        for (int i = 0; i < 200 && DemoServer.strictBrokerOpenSessions() != expected; i++) {
            Thread.sleep(50);
        }
        return DemoServer.strictBrokerOpenSessions();
    }

    private static void awaitSent(SamplerHarness harness, long count) throws InterruptedException {
        for (int i = 0; i < 400 && harness.books().sent() < count; i++) {
            Thread.sleep(25);
        }
        assertThat(harness.books().sent()).isEqualTo(count);
    }
}
