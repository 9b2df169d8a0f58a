package io.github.sockjsstomp.demo;

import static io.github.sockjsstomp.demo.DemoStompTestClient.poll;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sockjsstomp.demo.DemoStompTestClient.Frame;
import io.github.sockjsstomp.demo.DemoStompTestClient.Session;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** STOMP scenarios against the demo server with Spring's WebSocketStompClient (SockJS and raw WebSocket). */
class DemoServerStompTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(DemoStompTestClient.TIMEOUT_SECONDS);

    private static DemoServer server;

    private static HttpClient http;

    private static DemoStompTestClient client;

    private final List<Session> sessions = new ArrayList<>();

    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void startServer() {
        server = DemoServer.start(0);
        http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        client = new DemoStompTestClient(server);
    }

    @AfterAll
    static void stopServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void disconnect() {
        this.sessions.forEach(Session::close);
    }

    @Test
    void connectedFrameCarriesTheLoginAsUserNameAndTheBrokerHeartbeat() throws Exception {
        Session alice = sockJs("alice");

        assertThat(alice.connectedHeaders().getFirst("user-name")).isEqualTo("alice");
        assertThat(alice.connectedHeaders().getHeartbeat()).containsExactly(10_000, 10_000);
    }

    @Test
    void echoGoesBackToTheSendingSessionOnlyWithItsExtensionHeaders() throws Exception {
        Session alice = sockJs("alice");
        Session aliceElsewhere = sockJs("alice");
        Session bob = sockJs("bob");
        BlockingQueue<Frame> bobChat = bob.subscribe("/user/queue/chat");
        BlockingQueue<Frame> aliceElsewhereChat = aliceElsewhere.subscribe("/user/queue/chat");
        bob.sync();
        aliceElsewhere.sync();

        byte[] payload = "{\"text\":\"ping ✓\"}".getBytes(StandardCharsets.UTF_8);
        alice.send("/app/echo", Map.of("x-msg-id", "abc", "x-other", "1", "content-type", "application/json"), payload);

        Frame reply = poll(alice.echoes);
        assertThat(reply.payload()).isEqualTo(payload);
        assertThat(reply.header("x-msg-id")).isEqualTo("abc");
        assertThat(reply.header("x-other")).isEqualTo("1");
        assertThat(reply.header("destination")).isEqualTo("/user/queue/echo");
        assertThat(reply.headers().getContentType()).hasToString("application/json");

        // Barrier: the server handles alice's frames in order and delivers to each session in publish order,
        // so a mis-routed echo would reach bob (and alice's other session) before these chat messages.
        alice.send("/app/chat", Map.of("to", "bob"), "after echo");
        alice.send("/app/chat", Map.of("to", "alice"), "after echo");
        assertThat(poll(bobChat).text()).isEqualTo("after echo");
        assertThat(poll(aliceElsewhereChat).text()).isEqualTo("after echo");
        assertThat(bob.echoes).isEmpty();
        assertThat(aliceElsewhere.echoes).isEmpty();
    }

    @Test
    void helloIsBroadcastToEveryGreetingsSubscriber() throws Exception {
        Session alice = sockJs("alice");
        Session carol = sockJs("carol");
        BlockingQueue<Frame> aliceGreetings = alice.subscribe("/topic/greetings");
        BlockingQueue<Frame> carolGreetings = carol.subscribe("/topic/greetings");
        alice.sync();
        carol.sync();

        alice.send("/app/hello", Map.of(), "{\"name\":\"World <b>\"}");

        for (BlockingQueue<Frame> greetings : List.of(aliceGreetings, carolGreetings)) {
            Frame greeting = poll(greetings);
            assertThat(greeting.text()).isEqualTo("{\"content\":\"Hello, World &lt;b&gt;!\"}");
            assertThat(greeting.header("destination")).isEqualTo("/topic/greetings");
            assertThat(greeting.headers().getContentType()).hasToString("application/json");
        }
    }

    @Test
    void chatToAUserReachesAllHisSessionsWithTheSender() throws Exception {
        Session alice = sockJs("alice");
        Session bob = sockJs("bob");
        Session bobElsewhere = sockJs("bob");
        BlockingQueue<Frame> bobChat = bob.subscribe("/user/queue/chat");
        BlockingQueue<Frame> bobElsewhereChat = bobElsewhere.subscribe("/user/queue/chat");
        bob.sync();
        bobElsewhere.sync();

        alice.send("/app/chat", Map.of("to", "bob", "x-msg-id", "m-1"), "Hi Bob, how can I help?");

        for (BlockingQueue<Frame> chat : List.of(bobChat, bobElsewhereChat)) {
            Frame message = poll(chat);
            assertThat(message.text()).isEqualTo("Hi Bob, how can I help?");
            assertThat(message.header("from")).isEqualTo("alice");
            assertThat(message.header("x-msg-id")).isEqualTo("m-1");
            assertThat(message.header("destination")).isEqualTo("/user/queue/chat");
        }
    }

    @Test
    void chatWithoutRecipientIsBroadcastOnTopicChat() throws Exception {
        Session alice = sockJs("alice");
        Session dave = raw("dave");
        BlockingQueue<Frame> room = dave.subscribe("/topic/chat");
        dave.sync();

        alice.send("/app/chat", Map.of("x-msg-id", "room-1"), "hello room");

        Frame message = poll(room);
        assertThat(message.text()).isEqualTo("hello room");
        assertThat(message.header("from")).isEqualTo("alice");
        assertThat(message.header("x-msg-id")).isEqualTo("room-1");
    }

    @Test
    void pushSendsCountMessagesOfExactlyTheRequestedSizeToTheCaller() throws Exception {
        Session alice = sockJs("alice");
        Session aliceElsewhere = sockJs("alice");
        BlockingQueue<Frame> pushes = alice.subscribe("/user/queue/push");
        BlockingQueue<Frame> elsewherePushes = aliceElsewhere.subscribe("/user/queue/push");
        BlockingQueue<Frame> elsewhereChat = aliceElsewhere.subscribe("/user/queue/chat");
        aliceElsewhere.sync();

        alice.send("/app/push", Map.of("x-msg-id", "p-1"), "{\"count\":3,\"bytes\":10000}");

        for (int seq = 1; seq <= 3; seq++) {
            Frame push = poll(pushes);
            assertThat(push.payload()).hasSize(10_000);
            assertThat(push.header("x-push-seq")).isEqualTo(Integer.toString(seq));
            assertThat(push.header("x-push-count")).isEqualTo("3");
            assertThat(push.header("x-msg-id")).isEqualTo("p-1");
            assertThat(json.readTree(push.payload()).path("seq").asInt()).isEqualTo(seq);
        }

        alice.send("/app/push", Map.of(), "{\"count\":2,\"bytes\":5}");
        for (int seq = 1; seq <= 2; seq++) {
            Frame push = poll(pushes);
            assertThat(push.text()).isEqualTo("xxxxx");
            assertThat(push.header("x-push-seq")).isEqualTo(Integer.toString(seq));
        }
        // The sync reply is published after the pushes, to the same session: nothing more is on its way.
        alice.sync();
        assertThat(pushes).isEmpty();
        // Barrier as in the echo test: alice's other session got none of the pushes.
        alice.send("/app/chat", Map.of("to", "alice"), "done");
        assertThat(poll(elsewhereChat).text()).isEqualTo("done");
        assertThat(elsewherePushes).isEmpty();
    }

    @Test
    void invalidPushIsAnsweredOnTheErrorsQueueAndTheSessionStaysUp() throws Exception {
        Session alice = sockJs("alice");
        BlockingQueue<Frame> errors = alice.subscribe("/user/queue/errors");
        BlockingQueue<Frame> pushes = alice.subscribe("/user/queue/push");

        alice.send("/app/push", Map.of("x-msg-id", "bad-1"), "{\"count\":0,\"bytes\":10}");
        alice.send("/app/push", Map.of("x-msg-id", "bad-2"), "{\"count\":1,\"bytes\":2000000}");
        alice.send("/app/push", Map.of("x-msg-id", "bad-3"), "not json");

        for (String id : List.of("bad-1", "bad-2", "bad-3")) {
            Frame error = poll(errors);
            assertThat(error.header("x-msg-id")).isEqualTo(id);
            assertThat(json.readTree(error.payload()).path("error").asText()).startsWith("push:");
        }
        alice.sync();
        assertThat(pushes).isEmpty();
        assertThat(alice.errors).isEmpty();
    }

    @Test
    void passcodeRejectYieldsAnErrorFrame() throws Exception {
        Session mallory = client.sockJs(newSessionToken(), "mallory", "reject");
        this.sessions.add(mallory);

        Frame error = poll(mallory.errors);

        assertThat(error.headers().getFirst("message")).isEqualTo("Bad credentials for mallory");
        assertThat(mallory.awaitConnectFailure()).isNotNull();
    }

    @Test
    void passcodeRejectOnTheRawEndpointToo() throws Exception {
        Session eve = client.raw("eve", "reject");
        this.sessions.add(eve);

        assertThat(poll(eve.errors).headers().getFirst("message")).isEqualTo("Bad credentials for eve");
        assertThat(eve.awaitConnectFailure()).isNotNull();
    }

    @Test
    void rawStompEndpointWorksWithoutTheCookie() throws Exception {
        Session anonymous = raw(null);
        assertThat(anonymous.connectedHeaders().getFirst("user-name")).startsWith("anon-");

        anonymous.send("/app/echo", Map.of("x-msg-id", "raw-1"), "over raw WebSocket");

        Frame reply = poll(anonymous.echoes);
        assertThat(reply.text()).isEqualTo("over raw WebSocket");
        assertThat(reply.header("x-msg-id")).isEqualTo("raw-1");
    }

    @Test
    void xhrStreamingTransportCarriesAPushBurstAcrossStreamRestarts() throws Exception {
        Session alice = client.sockJsXhr(newSessionToken(), "alice");
        this.sessions.add(alice);
        alice.awaitConnected();
        BlockingQueue<Frame> pushes = alice.subscribe("/user/queue/push");

        // 20 x 10000 bytes > SockJS's 128 KiB streamBytesLimit: the server ends the streaming response and the
        // client reopens it; messages in between wait in the session's cache.
        alice.send("/app/push", Map.of(), "{\"count\":20,\"bytes\":10000}");

        for (int seq = 1; seq <= 20; seq++) {
            Frame push = poll(pushes);
            assertThat(push.payload()).hasSize(10_000);
            assertThat(push.header("x-push-seq")).isEqualTo(Integer.toString(seq));
        }
        alice.send("/app/echo", Map.of("x-msg-id", "xhr-1"), "over xhr");
        assertThat(poll(alice.echoes).header("x-msg-id")).isEqualTo("xhr-1");
    }

    @Test
    void sockJsConnectWithoutTheCookieFails() throws Exception {
        Session noCookie = client.sockJs(null, "alice", null);
        this.sessions.add(noCookie);

        assertThat(noCookie.awaitConnectFailure()).isNotNull();
    }

    @Test
    void statsCountConnectionsAndMessages() throws Exception {
        JsonNode before = stats();
        Session alice = sockJs("alice");
        alice.send("/app/echo", Map.of(), "1");
        poll(alice.echoes);
        alice.send("/app/hello", Map.of(), "{\"name\":\"stats\"}");
        alice.sync();

        JsonNode after = stats();

        assertThat(after.path("connectedSessions").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(after.path("totalConnects").asLong())
                .isGreaterThan(before.path("totalConnects").asLong());
        JsonNode received = after.path("messagesReceived");
        // echo + sync echo
        assertThat(received.path("/app/echo").asLong())
                .isGreaterThanOrEqualTo(
                        before.path("messagesReceived").path("/app/echo").asLong() + 2);
        assertThat(received.path("/app/hello").asLong())
                .isGreaterThanOrEqualTo(
                        before.path("messagesReceived").path("/app/hello").asLong() + 1);
        assertThat(after.path("messagesSent").asLong())
                .isGreaterThanOrEqualTo(before.path("messagesSent").asLong() + 2);
        assertThat(server.connectedSessions()).isGreaterThanOrEqualTo(1);
    }

    // --- helpers

    private Session sockJs(String login) throws Exception {
        Session session = client.sockJs(newSessionToken(), login, null);
        this.sessions.add(session);
        return session.awaitConnected();
    }

    private Session raw(String login) throws Exception {
        Session session = client.raw(login);
        this.sessions.add(session);
        return session.awaitConnected();
    }

    private static String newSessionToken() throws Exception {
        HttpResponse<String> index = http.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/index"))
                        .timeout(TIMEOUT)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String setCookie = index.headers().firstValue("Set-Cookie").orElseThrow();
        return setCookie.substring("DEMOSESSION=".length(), setCookie.indexOf(';'));
    }

    private JsonNode stats() throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/stats"))
                        .timeout(TIMEOUT)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body());
    }
}
