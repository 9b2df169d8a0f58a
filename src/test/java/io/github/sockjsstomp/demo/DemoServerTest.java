package io.github.sockjsstomp.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo server's HTTP side: the session cookie, /clientPull, /stats and the cookie-guarded SockJS handshake. */
class DemoServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(DemoStompTestClient.TIMEOUT_SECONDS);

    private static DemoServer server;

    private static HttpClient http;

    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void startServer() {
        server = DemoServer.start(0);
        http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void startsOnARandomLoopbackPort() {
        assertThat(server.port()).isPositive();
        assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
    }

    @Test
    void startFailsWithAnExceptionWhenThePortIsTaken() {
        Throwable failure = catchThrowable(() -> DemoServer.start(server.port()).close());

        assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessageContaining("failed to start");
    }

    @Test
    void indexSetsANewSessionCookieOnEveryCall() throws Exception {
        HttpResponse<String> first = get("/index", null);
        HttpResponse<String> second = get("/index", null);

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(first.body()).contains("<html>");
        String setCookie = first.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).startsWith("DEMOSESSION=").contains("Path=/").contains("HttpOnly");
        assertThat(tokenOf(first)).isNotBlank().isNotEqualTo(tokenOf(second));
    }

    @Test
    void clientPullNeedsAValidSessionCookie() throws Exception {
        assertThat(get("/clientPull", null).statusCode()).isEqualTo(401);
        assertThat(get("/clientPull", "DEMOSESSION=not-issued-here").statusCode())
                .isEqualTo(401);

        String token = newSessionToken();
        HttpResponse<String> ok = get("/clientPull", "DEMOSESSION=" + token);

        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(ok.body()).isEqualTo("{\"session\":\"" + token + "\",\"status\":\"ok\"}");
    }

    @Test
    void sockJsInfoIsOpen() throws Exception {
        HttpResponse<String> info = get("/ws/info", null);

        assertThat(info.statusCode()).isEqualTo(200);
        assertThat(json.readTree(info.body()).path("websocket").asBoolean()).isTrue();
    }

    @Test
    void sockJsWebSocketHandshakeIsRefusedWithoutTheCookie() {
        Throwable failure = catchThrowable(() -> openSockJsWebSocket(null));

        assertThat(failure)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(WebSocketHandshakeException.class);
        WebSocketHandshakeException refused = (WebSocketHandshakeException) failure.getCause();
        assertThat(refused.getResponse().statusCode()).isEqualTo(403);
    }

    @Test
    void sockJsWebSocketHandshakeSucceedsWithTheCookie() throws Exception {
        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        WebSocket webSocket = openSockJsWebSocket(newSessionToken(), frames);
        try {
            // SockJS opens every session with the "o" frame.
            assertThat(frames.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("o");
        } finally {
            webSocket.abort();
        }
    }

    @Test
    void rawSockJsWebSocketUrlIsGuardedToo() {
        Throwable failure = catchThrowable(() -> http.newWebSocketBuilder()
                .connectTimeout(TIMEOUT)
                .buildAsync(URI.create(wsUrl("/ws/websocket")), new WebSocket.Listener() {})
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));

        assertThat(failure).cause().isInstanceOf(WebSocketHandshakeException.class);
        assertThat(((WebSocketHandshakeException) failure.getCause())
                        .getResponse()
                        .statusCode())
                .isEqualTo(403);
    }

    @Test
    void sockJsXhrTransportIsGuardedToo() throws Exception {
        String sessionPath = "/ws/000/" + UUID.randomUUID() + "/xhr";
        HttpResponse<String> refused = post(sessionPath, null);
        assertThat(refused.statusCode()).isEqualTo(403);

        HttpResponse<String> opened = post("/ws/000/" + UUID.randomUUID() + "/xhr", "DEMOSESSION=" + newSessionToken());
        assertThat(opened.statusCode()).isEqualTo(200);
        assertThat(opened.body()).isEqualTo("o\n");
    }

    @Test
    void statsIsJsonWithTheCounters() throws Exception {
        HttpResponse<String> stats = get("/stats", null);

        assertThat(stats.statusCode()).isEqualTo(200);
        JsonNode node = json.readTree(stats.body());
        assertThat(node.has("connectedSessions")).isTrue();
        assertThat(node.has("totalConnects")).isTrue();
        assertThat(node.has("messagesSent")).isTrue();
        List<String> destinations = List.of("/app/hello", "/app/echo", "/app/chat", "/app/push");
        for (String destination : destinations) {
            assertThat(node.path("messagesReceived").has(destination))
                    .as(destination)
                    .isTrue();
        }
    }

    @Test
    void pushPayloadsHaveExactlyTheRequestedSize() throws Exception {
        for (int size : new int[] {1, 5, 17, 18, 19, 100, 10_000}) {
            byte[] payload = DemoStompController.pushPayload(7, size);
            assertThat(payload).hasSize(size);
            if (payload[0] == '{') {
                JsonNode node = json.readTree(payload);
                assertThat(node.path("seq").asInt()).isEqualTo(7);
            } else {
                assertThat(new String(payload, StandardCharsets.US_ASCII)).matches("x+");
            }
        }
    }

    // --- helpers

    private static String wsUrl(String path) {
        return "ws://" + DemoServer.HOST + ":" + server.port() + path;
    }

    private static WebSocket openSockJsWebSocket(String token) throws Exception {
        return openSockJsWebSocket(token, new LinkedBlockingQueue<>());
    }

    private static WebSocket openSockJsWebSocket(String token, BlockingQueue<String> frames) throws Exception {
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(TIMEOUT);
        if (token != null) {
            builder.header("Cookie", "DEMOSESSION=" + token);
        }
        String url = wsUrl("/ws/000/" + UUID.randomUUID().toString().replace("-", "") + "/websocket");
        return builder.buildAsync(URI.create(url), new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        this.text.append(data);
                        if (last) {
                            frames.add(this.text.toString());
                            this.text.setLength(0);
                        }
                        webSocket.request(1);
                        return null;
                    }
                })
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    private String newSessionToken() throws Exception {
        return tokenOf(get("/index", null));
    }

    private static String tokenOf(HttpResponse<?> response) {
        String setCookie = response.headers().firstValue("Set-Cookie").orElseThrow();
        return setCookie.substring("DEMOSESSION=".length(), setCookie.indexOf(';'));
    }

    private static HttpResponse<String> get(String path, String cookie) throws Exception {
        return http.send(request(path, cookie).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String cookie) throws Exception {
        return http.send(
                request(path, cookie).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path, String cookie) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(TIMEOUT);
        if (cookie != null) {
            builder.header("Cookie", cookie);
        }
        return builder;
    }
}
