package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.deflate.DeflateExtension;
import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.timing.Books;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The WebSocket compression browsers negotiate, against the demo server (Tomcat, which accepts it): offered and
 * agreed by default, every message whole in both directions whatever its size and however the server split it into
 * frames, the server's context kept from message to message; not offered when turned off.
 */
class CompressionIT {

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    Path dir;

    private Map<String, String> sender(String login, String transport, String endpoint) {
        Map<String, String> p = new HashMap<>();
        p.put("host", "127.0.0.1");
        p.put("port", Integer.toString(demo.port()));
        p.put("login", login);
        p.put("heartbeatMillis", "0");
        p.put("transport", transport);
        p.put("endpoint", endpoint);
        p.put("mode", "await-reply");
        p.put("replyTimeoutMillis", "10000");
        p.put("subscribeTo", "/user/queue/echo");
        p.put("timingLog", dir.resolve(login + ".csv").toString());
        if (transport.equals("raw")) {
            p.put("indexPath", "none");
            p.put("pullPath", "none");
        } else {
            p.put("indexPath", "/index");
            p.put("pullPath", "/clientPull");
        }
        return p;
    }

    /**
     * A payload of {@code bytes}: text that compresses (it repeats), then text that does not (random letters), so
     * deflate writes both kinds of block; {@code {{msgId}}} first, as the body names the message too.
     */
    private static String payload(int bytes, long seed) {
        StringBuilder text = new StringBuilder(bytes + 16);
        Random random = new Random(seed);
        while (text.length() < bytes) {
            if (text.length() < bytes / 2) {
                text.append("the same words again and again ");
            } else {
                text.append((char) ('a' + random.nextInt(26)));
            }
        }
        text.setLength(bytes);
        return text.toString();
    }

    /**
     * The echo's reply is the SEND's body: each message comes back byte for byte, the server's later replies
     * compressed against its earlier ones (Tomcat keeps its context), the client's SENDs each on their own.
     */
    @ParameterizedTest
    @CsvSource({
        "raw, /stomp-ws, 1",
        "raw, /stomp-ws, 1000",
        "raw, /stomp-ws, 70000",
        "raw, /stomp-ws, 120000",
        "websocket, /ws, 1",
        "websocket, /ws, 1000",
        "websocket, /ws, 9000"
    })
    void everyMessageComesBackWholeOverANegotiatedCompression(String transport, String endpoint, int bytes)
            throws Exception {
        int users = 2;
        int messages = 4;
        String login = "deflate-" + transport + "-" + bytes;
        String body = payload(bytes, bytes);
        Books books;
        List<List<SampleResult>> results;
        List<SampleResult> sessions;
        try (SamplerHarness harness = new SamplerHarness(users)) {
            results = harness.run(
                    users,
                    StompSendSampler::new,
                    i -> {
                        Map<String, String> p = sender(login, transport, endpoint);
                        p.put("payload", body);
                        return p;
                    },
                    messages);
            sessions = harness.sessionSamples(0);
            harness.endTest();
            books = harness.books();
        }
        assertThat(results.stream().flatMap(List::stream))
                .hasSize(users * messages)
                .allSatisfy(r -> {
                    assertThat(r.isSuccessful())
                            .as(r.getResponseCode() + " " + r.getResponseMessage())
                            .isTrue();
                    assertThat(r.getResponseDataAsString()).isEqualTo(body);
                });
        assertThat(sessions)
                .isNotEmpty()
                .allSatisfy(s ->
                        assertThat(s.getResponseHeaders()).startsWith("Sec-WebSocket-Extensions: permessage-deflate"));
        assertThat(books.sent()).isEqualTo(users * messages);
        assertThat(books.answered()).isEqualTo(users * messages);
        List<String> records = Files.readAllLines(dir.resolve(login + ".csv"), StandardCharsets.UTF_8);
        assertThat(records.subList(1, records.size()))
                .hasSize(users * messages)
                .allSatisfy(r -> assertThat(r.split(",")[1]).isEqualTo("ANSWERED"));
    }

    @ParameterizedTest
    @CsvSource({"raw, /stomp-ws", "websocket, /ws"})
    void compressionOffOffersNothingAndTheServerAgreesToNothing(String transport, String endpoint) throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = sender("plain-" + transport, transport, endpoint);
            p.put("compression", "off");
            List<SampleResult> results =
                    harness.run(1, StompSendSampler::new, i -> p, 3).get(0);
            List<SampleResult> sessions = harness.sessionSamples(0);
            harness.endTest();
            assertThat(results).allSatisfy(r -> assertThat(r.isSuccessful()).isTrue());
            assertThat(sessions)
                    .singleElement()
                    .satisfies(s -> assertThat(s.getResponseHeaders()).isEqualTo("Sec-WebSocket-Extensions: none\n"));
        }
    }

    /**
     * The generator keeps no zlib stream per session: a hundred sessions sending and receiving compressed messages
     * make about as many streams as messages were under way at once (two senders, two I/O threads), where Tomcat's
     * own extension would make two per session.
     */
    @Test
    void aHundredCompressedSessionsShareAFewZlibStreams() throws Exception {
        int threads = 2;
        int perThread = 50;
        long before = DeflateExtension.zlibStreamsMade();
        Books books;
        try (SamplerHarness harness = new SamplerHarness(threads)) {
            harness.run(
                    threads,
                    StompSendSampler::new,
                    i -> {
                        Map<String, String> p = sender("shared-" + i + "-{{userNumber}}", "raw", "/stomp-ws");
                        p.put("sessionsPerThread", Integer.toString(perThread));
                        p.put("payload", payload(2000, i));
                        return p;
                    },
                    perThread * 2);
            harness.endTest();
            books = harness.books();
        }
        assertThat(books.answered()).isEqualTo(threads * perThread * 2L);
        long made = DeflateExtension.zlibStreamsMade() - before;
        assertThat(made)
                .as("zlib streams made for %d sessions", threads * perThread)
                .isPositive()
                .isLessThanOrEqualTo(16);
    }

    /**
     * The server's pushes, 256 KB each, compressed by the server in frames of its buffer's size and read here in
     * pieces of the session's 1 KB buffers (the demo takes at most 128 KB inbound, so this size goes one way).
     */
    @Test
    void pushesOfAQuarterMegabyteArriveWholeCompressed() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = sender("big-deflate-consumer", "raw", "/stomp-ws");
            p.put("subscribeTo", "/user/queue/push");
            p.put("triggerDestination", "/app/push");
            p.put("triggerPayload", "{\"count\":3,\"bytes\":262144}");
            p.put("expectMessages", "3");
            List<SampleResult> results =
                    harness.run(1, StompReceiveSampler::new, i -> p, 2).get(0);
            harness.endTest();
            assertThat(results).allSatisfy(r -> {
                assertThat(r.isSuccessful()).as(r.getResponseMessage()).isTrue();
                assertThat(r.getBytesAsLong()).isEqualTo(3 * 262_144);
            });
        }
    }

    @Test
    void anOfferThatIsNotPermessageDeflateIsAConfigErrorNamingTheParameter() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = sender("bad-offer", "raw", "/stomp-ws");
            p.put("compression", "x-webkit-deflate-frame");
            List<SampleResult> results =
                    harness.run(1, StompConnectSampler::new, i -> p, 1).get(0);
            harness.endTest();
            assertThat(results).isNotEmpty().allSatisfy(r -> {
                assertThat(r.isSuccessful()).isFalse();
                assertThat(r.getResponseMessage())
                        .contains("Parameter 'compression' has value 'x-webkit-deflate-frame'")
                        .contains("browser, off");
            });
        }
    }
}
