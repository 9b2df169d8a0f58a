package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServer;
import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.timing.Books;
import io.github.sockjsstomp.timing.TimingRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The samplers against the real demo server on a random loopback port, driven as JMeter drives them. */
class SamplersIT {

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    Path dir;

    private Map<String, String> base(String login) {
        Map<String, String> params = new HashMap<>();
        params.put("host", "127.0.0.1");
        params.put("port", Integer.toString(demo.port()));
        // The demo server's login steps: its index sets the session cookie the handshake needs.
        params.put("indexPath", "/index");
        params.put("pullPath", "/clientPull");
        params.put("login", login);
        params.put("heartbeatMillis", "0");
        return params;
    }

    private Map<String, String> sender(String login, Path timingLog) {
        Map<String, String> params = base(login);
        params.put("timingLog", timingLog.toString());
        params.put("replyTimeoutMillis", "10000");
        params.put("subscribeTo", "/user/queue/echo"); // the session sampler's: where echo replies come
        return params;
    }

    private static List<String[]> records(Path timingLog) throws Exception {
        List<String> lines = Files.readAllLines(timingLog, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo(TimingRecord.HEADER);
        return lines.subList(1, lines.size()).stream()
                .map(line -> line.split(",", -1))
                .toList();
    }

    private static void assertAllSuccessful(List<List<SampleResult>> results) {
        assertThat(results.stream().flatMap(List::stream))
                .allSatisfy(r -> assertThat(r.isSuccessful())
                        .as(r.getResponseCode() + " " + r.getResponseMessage())
                        .isTrue());
    }

    @Test
    void twoHundredConcurrentUsersEchoWithExactBooks() throws Exception {
        Path timingLog = dir.resolve("echo.csv");
        int users = 200;
        int messages = 10;
        List<List<SampleResult>> results;
        Books books;
        try (SamplerHarness harness = new SamplerHarness(users)) {
            results = harness.run(users, StompSendSampler::new, i -> sender("user-" + i, timingLog), messages);
            harness.endTest();
            books = harness.books();
        }
        assertAllSuccessful(results);
        assertThat(results.stream().mapToLong(List::size).sum()).isEqualTo(users * messages);
        assertThat(books.sent()).isEqualTo(users * messages);
        assertThat(books.answered()).isEqualTo(users * messages);
        assertThat(books.lost() + books.failed() + books.pending()).isZero();

        List<String[]> records = records(timingLog);
        assertThat(records).hasSize(users * messages);
        assertThat(records).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("ANSWERED");
            assertThat(r[4]).isEqualTo(r[5]); // echo: the sender is the receiver
            assertThat(r[6]).isEqualTo("/app/echo");
            assertThat(Long.parseLong(r[3])).isGreaterThanOrEqualTo(0);
            assertThat(r).hasSize(18);
            assertThat(r[16]).isEmpty(); // no receipt asked
            assertThat(r[17]).isEmpty(); // not a redelivery
            assertThat(r[9]).isEqualTo("fire-and-forget"); // the sender's default mode
            assertThat(Long.parseLong(r[11]) / 1000).isEqualTo(Long.parseLong(r[0])); // µs and ms agree
            assertThat(r[12]).isEqualTo("local");
            assertThat(r[13]).isNotEmpty();
            assertThat(r[14]).isNotEmpty().isEqualTo(r[15]); // the virtual user's name, sender and receiver
        });
        assertThat(records.stream().map(r -> r[10]).distinct()).as("one run").hasSize(1);
        assertThat(records.stream().map(r -> r[2]).collect(Collectors.toSet())).hasSize(users * messages);
        assertThat(records.stream().map(r -> r[4]).collect(Collectors.toSet())).hasSize(users);
        assertThat(records.stream().map(r -> r[14]).collect(Collectors.toSet())).hasSize(users);
    }

    /** The plans' shape: a session sampler opens the thread's sessions, the send sampler after it uses them. */
    @Test
    void aSendSamplerWithoutConnectionParametersSendsOnTheSessionsOfTheSessionSamplerBeforeIt() throws Exception {
        Path timingLog = dir.resolve("attached.csv");
        List<SampleResult> connects;
        List<SampleResult> sends;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> session = base("user-{{userNumber}}");
            session.put("sessionsPerThread", "3");
            session.put("subscribeTo", "/user/queue/echo");
            session.put("TestElement.name", "session");
            int opener =
                    harness.add(new StompConnectSampler(), SamplerHarness.context(new StompConnectSampler(), session));
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(
                    send,
                    SamplerHarness.context(
                            send,
                            Map.of(
                                    "TestElement.name",
                                    "echo",
                                    "mode",
                                    "await-reply",
                                    "replyTimeoutMillis",
                                    "10000",
                                    "timingLog",
                                    timingLog.toString())));
            connects = harness.samples(opener, 3);
            sends = harness.samples(sender, 6);
            harness.endTest();
        }
        assertThat(connects).extracting(SampleResult::getSampleLabel).containsOnly("session");
        assertAllSuccessful(List.of(connects, sends));
        // No connect of its own: every sample is a round trip on a session already open.
        assertThat(sends).extracting(SampleResult::getSampleLabel).containsOnly("echo");
        assertThat(sends).allSatisfy(r -> assertThat(r.getResponseMessage()).startsWith("Reply to "));
        List<String[]> records = records(timingLog);
        assertThat(records).hasSize(6).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("ANSWERED");
            assertThat(r[9]).isEqualTo("await-reply");
        });
        // Round-robin over the three sessions, in send order (a record is written when its reply is matched, on
        // the I/O lane that read it, so two lanes may write in either order).
        assertThat(records.stream()
                        .sorted(Comparator.comparingLong(r -> Long.parseLong(r[11])))
                        .map(r -> r[4])
                        .toList())
                .containsExactly("user-1", "user-2", "user-3", "user-1", "user-2", "user-3");
    }

    @Test
    void aSendSamplerWithoutConnectionParametersOrASessionSamplerIsAConfigError() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(
                    send, SamplerHarness.context(send, Map.of("TestElement.name", "echo", "timingLog", "none")));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.isStopTest()).isTrue();
            assertThat(result.getResponseMessage())
                    .contains("'echo' needs a session sampler")
                    .contains("StompConnectSampler");
        }
    }

    @Test
    void twoSendSamplersThatTimeDifferentlyCannotShareTheSessions() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> session = base("user-{{userNumber}}");
            int opener =
                    harness.add(new StompConnectSampler(), SamplerHarness.context(new StompConnectSampler(), session));
            StompSendSampler first = new StompSendSampler();
            StompSendSampler second = new StompSendSampler();
            int a = harness.add(
                    first, SamplerHarness.context(first, Map.of("TestElement.name", "first", "timingLog", "none")));
            int b = harness.add(
                    second,
                    SamplerHarness.context(
                            second,
                            Map.of("TestElement.name", "second", "timingLog", "none", "replyTimeoutMillis", "1234")));
            assertThat(harness.samples(opener, 1).get(0).isSuccessful()).isTrue();
            assertThat(harness.samples(a, 1).get(0).isSuccessful()).isTrue();
            SampleResult refused = harness.samples(b, 1).get(0);
            assertThat(refused.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(refused.getResponseMessage()).contains("'second' and 'first' send on the same thread's users");
        }
    }

    @Test
    void chatIsTimedAtTheReceiver() throws Exception {
        Path timingLog = dir.resolve("chat.csv");
        try (SamplerHarness harness = new SamplerHarness(2)) {
            Map<String, String> receiver = base("bob");
            receiver.put("expectMessages", "20");
            List<List<SampleResult>> received = harness.run(1, StompReceiveSampler::new, i -> receiver, 0);
            Map<String, String> chat = sender("alice", timingLog);
            chat.put("destination", "/app/chat");
            chat.put("sendHeaders", "to:bob");
            chat.put("subscribeTo", "");
            List<List<SampleResult>> sent = harness.run(1, StompSendSampler::new, i -> chat, 20);
            SampleResult got = harness.sampleAgain(0);
            harness.endTest();

            assertAllSuccessful(sent);
            assertThat(received).hasSize(1);
            assertThat(got.isSuccessful()).as(got.getResponseMessage()).isTrue();
            assertThat(got.getResponseMessage()).startsWith("Received 20 of 20 messages");
        }
        List<String[]> records = records(timingLog);
        assertThat(records).hasSize(20).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("ANSWERED");
            assertThat(r[4]).isEqualTo("alice");
            assertThat(r[5]).isEqualTo("bob");
        });
    }

    @Test
    void greetingsBroadcastIsAnsweredByEverySubscriberInAwaitReply() throws Exception {
        Path timingLog = dir.resolve("greetings.csv");
        int users = 3;
        int messages = 4;
        List<List<SampleResult>> results;
        Books books;
        try (SamplerHarness harness = new SamplerHarness(users)) {
            // Everyone subscribes first, so every greeting has three receivers.
            results = harness.run(
                    users,
                    StompSendSampler::new,
                    i -> {
                        Map<String, String> p = sender("greeter-" + i, timingLog);
                        p.put("destination", "/app/hello");
                        p.put("subscribeTo", "/topic/greetings");
                        p.put("payload", "{\"name\":\"{{msgId}}\"}");
                        p.put("mode", "await-reply");
                        p.put("repliesPerMessage", "0");
                        p.put("replyFrom", "any"); // every subscriber's copy answers, not only the sender's
                        p.put("replyTimeoutMillis", "3000");
                        return p;
                    },
                    0);
            for (int n = 0; n < messages; n++) {
                for (int i = 0; i < users; i++) {
                    SampleResult r = harness.sampleAgain(i);
                    assertThat(r.isSuccessful()).as(r.getResponseMessage()).isTrue();
                    assertThat(r.getResponseDataAsString()).startsWith("{\"content\":\"Hello, m");
                }
            }
            harness.endTest();
            books = harness.books();
        }
        assertThat(results).hasSize(users);
        List<String[]> records = records(timingLog);
        assertThat(records).hasSize(users * messages * users).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("ANSWERED");
            assertThat(r[9]).isEqualTo("await-reply");
        });
        assertThat(records.stream().map(r -> r[2]).collect(Collectors.toSet())).hasSize(users * messages);
        assertThat(books.answered()).isEqualTo(users * messages);
    }

    @ParameterizedTest
    @CsvSource({"websocket, /ws", "xhr-streaming, /ws", "xhr, /ws", "raw, /stomp-ws"})
    void everyTransportEchoesInAwaitReply(String transport, String endpoint) throws Exception {
        Path timingLog = dir.resolve(transport + ".csv");
        try (SamplerHarness harness = new SamplerHarness(2)) {
            List<List<SampleResult>> results = harness.run(
                    2,
                    StompSendSampler::new,
                    i -> {
                        Map<String, String> p = sender(transport + "-" + i, timingLog);
                        p.put("transport", transport);
                        p.put("endpoint", endpoint);
                        p.put("mode", "await-reply");
                        if (transport.equals("raw")) {
                            p.put("indexPath", "");
                            p.put("pullPath", "");
                        }
                        return p;
                    },
                    5);
            harness.endTest();
            assertAllSuccessful(results);
            assertThat(results.get(0).get(0).getResponseDataAsString()).contains("\"text\":\"hello\"");
        }
        assertThat(records(timingLog))
                .hasSize(10)
                .allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
        if (!transport.startsWith("xhr")) {
            // Tomcat's sessions do their I/O on our fixed group, not on the cached pool Tomcat builds for itself.
            Set<String> threads = Thread.getAllStackTraces().keySet().stream()
                    .map(Thread::getName)
                    .collect(Collectors.toSet());
            assertThat(threads)
                    .anyMatch(name -> name.startsWith("stomp-io-"))
                    .noneMatch(name -> name.startsWith("WebSocketClient-AsyncIO"));
        }
    }

    /**
     * SockJS carries text only: a SEND declared binary goes out as a text frame and is answered. The reply is
     * the greeting (JSON): Spring's own server, asked to echo application/octet-stream, answers with a binary
     * message its SockJS session then refuses (server side, not ours).
     */
    @ParameterizedTest
    @CsvSource({"websocket, /ws", "xhr-streaming, /ws", "raw, /stomp-ws"})
    void aBinarySendIsAnsweredOnEveryTransport(String transport, String endpoint) throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = sender("binary-" + transport, dir.resolve("binary-" + transport + ".csv"));
            p.put("transport", transport);
            p.put("endpoint", endpoint);
            p.put("mode", "await-reply");
            p.put("destination", "/app/hello");
            p.put("subscribeTo", "/topic/greetings");
            p.put("payload", "{\"name\":\"{{msgId}}\"}");
            p.put("sendHeaders", "content-type:application/octet-stream");
            if (transport.equals("raw")) {
                p.put("indexPath", "none");
                p.put("pullPath", "none");
            }
            List<List<SampleResult>> results = harness.run(1, StompSendSampler::new, i -> p, 3);
            harness.endTest();
            assertAllSuccessful(results);
            assertThat(results.get(0).get(0).getResponseDataAsString()).startsWith("{\"content\":\"Hello, ");
        }
    }

    /**
     * The sticky counters once the XHR polls of earlier tests' closed sessions have stopped (they count as
     * requests without the cookie, which those sessions never had): quiet for 500 ms, at most 10 s.
     */
    private static long[] settledStickyCounts() throws InterruptedException {
        long[] last = DemoServer.stickyAndUnstickyRequests();
        long quietSince = System.nanoTime();
        long deadline = quietSince + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(500) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            long[] now = DemoServer.stickyAndUnstickyRequests();
            if (!Arrays.equals(now, last)) {
                last = now;
                quietSince = System.nanoTime();
            }
        }
        return last;
    }

    /** A load balancer's cookie set on SockJS's /info goes back on the handshake and every XHR request. */
    @ParameterizedTest
    @CsvSource({"websocket", "xhr-streaming", "xhr"})
    void aCookieSetBySockJsInfoPinsTheSession(String transport) throws Exception {
        // Many users connecting at once, as in a ramp-up: each must ask /info itself and keep its own answer's
        // cookie, though Spring's SockJS client caches /info answers for the whole JVM.
        int users = 8;
        int sessionsEach = 3;
        long[] before = settledStickyCounts();
        try (SamplerHarness harness = new SamplerHarness(users)) {
            List<List<SampleResult>> results = harness.run(
                    users,
                    StompConnectSampler::new,
                    i -> {
                        Map<String, String> p = base("sticky-" + transport + "-" + i + "-{{userNumber}}");
                        p.put("transport", transport);
                        p.put("sessionsPerThread", Integer.toString(sessionsEach));
                        return p;
                    },
                    sessionsEach);
            assertAllSuccessful(results);
        }
        long[] after = settledStickyCounts();
        assertThat(after[2] - before[2]).as("/info requests, one per session").isEqualTo(users * sessionsEach);
        assertThat(after[0] - before[0])
                .as("requests carrying the cookie")
                .isGreaterThanOrEqualTo(users * sessionsEach);
        assertThat(after[1] - before[1]).as("requests without it").isZero();
    }

    @Test
    void unansweredMessagesAreLostAfterTheReplyTimeout() throws Exception {
        Path timingLog = dir.resolve("lost.csv");
        Books books;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = sender("lonely", timingLog);
            p.put("destination", "/topic/nobody-listens");
            p.put("replyTimeoutMillis", "200");
            List<List<SampleResult>> results = harness.run(1, StompSendSampler::new, i -> p, 5);
            harness.endTest();
            books = harness.books();
            assertAllSuccessful(results);
        }
        List<String[]> records = records(timingLog);
        assertThat(records).hasSize(5).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("LOST");
            assertThat(r[8]).isIn("timeout", "test-ended");
        });
        assertThat(books.lost()).isEqualTo(5);
        assertThat(books.balanced()).isTrue();
    }

    @Test
    void refusedLoginIsA401SampleAndFailedRecords() throws Exception {
        Path timingLog = dir.resolve("refused.csv");
        List<List<SampleResult>> results;
        List<SampleResult> sessions;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = sender("nocookie", timingLog);
            p.put("indexPath", "");
            results = harness.run(1, StompSendSampler::new, i -> p, 3);
            sessions = harness.sessionSamples(0);
            harness.endTest();
        }
        // The session sampler's connect fails first; then each send reconnects, fails alike, and is the sample.
        assertThat(sessions).singleElement().satisfies(r -> {
            assertThat(r.getSampleLabel()).isEqualTo("session");
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("401");
        });
        assertThat(results.get(0)).hasSize(3).allSatisfy(r -> {
            assertThat(r.getSampleLabel()).isEqualTo("StompSendSampler connect");
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("401");
            assertThat(r.getSubResults())
                    .extracting(SampleResult::getSampleLabel)
                    .containsExactly("clientPull");
        });
        assertThat(records(timingLog)).hasSize(3).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("FAILED");
            assertThat(r[8]).contains("Not connected");
        });
    }

    @Test
    void handshakeWithoutTheSessionCookieIsRefusedWithItsStatus() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base("intruder");
            p.put("indexPath", "");
            p.put("pullPath", "");
            List<List<SampleResult>> results = harness.run(1, StompConnectSampler::new, i -> p, 1);
            SampleResult r = results.get(0).get(0);
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("403");
            assertThat(r.getSubResults())
                    .extracting(SampleResult::getSampleLabel)
                    .containsExactly("connect");
        }
    }

    @Test
    void stompErrorOnConnectReportsTheServersMessage() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base("mallory");
            p.put("passcode", "reject");
            SampleResult r =
                    harness.run(1, StompConnectSampler::new, i -> p, 1).get(0).get(0);
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("StompError");
            assertThat(r.getResponseMessage()).contains("Bad credentials for mallory");
        }
    }

    @Test
    void connectSamplerConnectsOnceThenReportsTheSessionAlive() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            List<SampleResult> results = harness.run(1, StompConnectSampler::new, i -> base("holder"), 3)
                    .get(0);
            SampleResult connect = results.get(0);
            assertThat(connect.isSuccessful()).as(connect.getResponseMessage()).isTrue();
            assertThat(connect.getSubResults())
                    .extracting(SampleResult::getSampleLabel)
                    .containsExactly("index", "clientPull", "connect");
            assertThat(connect.getConnectTime()).isGreaterThanOrEqualTo(0);
            assertThat(results.subList(1, 3)).allSatisfy(r -> {
                assertThat(r.isSuccessful()).isTrue();
                assertThat(r.getSampleLabel()).endsWith(" alive");
            });
            assertThat(demo.server().connectedSessions()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void pushedMessagesAllArriveWithTheirSize() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base("consumer");
            p.put("subscribeTo", "/user/queue/push");
            p.put("triggerDestination", "/app/push");
            p.put("triggerPayload", "{\"count\":5,\"bytes\":10000}");
            p.put("expectMessages", "5");
            List<SampleResult> results =
                    harness.run(1, StompReceiveSampler::new, i -> p, 3).get(0);
            assertThat(results).allSatisfy(r -> {
                assertThat(r.isSuccessful()).as(r.getResponseMessage()).isTrue();
                assertThat(r.getBytesAsLong()).isEqualTo(50_000);
            });
        }
    }

    /** Plain WebSocket sessions keep 2,048-character buffers and still take big frames, in pieces. */
    @Test
    void aPushFarBiggerThanTheSessionBuffersArrivesWholeOverAPlainWebSocket() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base("big-consumer");
            p.put("transport", "raw");
            p.put("endpoint", "/stomp-ws");
            p.put("indexPath", "none");
            p.put("pullPath", "none");
            p.put("subscribeTo", "/user/queue/push");
            p.put("triggerDestination", "/app/push");
            p.put("triggerPayload", "{\"count\":3,\"bytes\":200000}");
            p.put("expectMessages", "3");
            List<SampleResult> results =
                    harness.run(1, StompReceiveSampler::new, i -> p, 2).get(0);
            assertThat(results).allSatisfy(r -> {
                assertThat(r.isSuccessful()).as(r.getResponseMessage()).isTrue();
                assertThat(r.getBytesAsLong()).isEqualTo(600_000);
            });
        }
    }

    /** As the server saw it: each user's handshake carried a session cookie of its own, issued to it in this test. */
    @Test
    void usersNeverShareCookies() throws Exception {
        int users = 50;
        try (SamplerHarness harness = new SamplerHarness(users)) {
            Set<String> issuedBefore = demo.server().sessionCookieValues();
            Map<String, Integer> before = demo.server().handshakesPerSessionCookie();
            List<List<SampleResult>> results = harness.run(users, StompConnectSampler::new, i -> base("c-" + i), 1);
            assertAllSuccessful(results);
            Map<String, Integer> handshakesNow = new HashMap<>();
            demo.server().handshakesPerSessionCookie().forEach((cookie, count) -> {
                int made = count - before.getOrDefault(cookie, 0);
                if (made > 0) {
                    handshakesNow.put(cookie, made);
                }
            });
            assertThat(handshakesNow)
                    .hasSize(users)
                    .allSatisfy((cookie, made) -> assertThat(made).isEqualTo(1));
            assertThat(handshakesNow.keySet()).doesNotContainAnyElementsOf(issuedBefore);
        }
    }

    @Test
    void badParametersFailEverySampleNamingEachParameterAndValue() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base("x");
            p.put("port", "80a");
            p.put("transport", "carrier-pigeon");
            p.put("mode", "sometimes");
            p.put("payload", "{{nope}}");
            List<SampleResult> results =
                    harness.run(1, StompSendSampler::new, i -> p, 2).get(0);
            // Each sampler names the bad parameters it has: the session sampler where and how, the sender what.
            assertThat(harness.sessionSamples(0)).singleElement().satisfies(r -> {
                assertThat(r.isSuccessful()).isFalse();
                assertThat(r.getResponseCode()).isEqualTo("ConfigError");
                assertThat(r.isStopTest()).isTrue();
                assertThat(r.getResponseMessage())
                        .contains("Parameter 'port' has value '80a'")
                        .contains("Parameter 'transport' has value 'carrier-pigeon'");
            });
            assertThat(results).hasSize(2).allSatisfy(r -> {
                assertThat(r.isSuccessful()).isFalse();
                assertThat(r.getResponseCode()).isEqualTo("ConfigError");
                assertThat(r.isStopTest()).isTrue();
                assertThat(r.getResponseMessage())
                        .contains("Parameter 'mode' has value 'sometimes'")
                        .contains("Parameter 'payload' has value '{{nope}}'");
            });
        }
    }
}
