package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.login.FakeHttpServer;
import io.github.sockjsstomp.client.login.FakeHttpServer.Answer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransportProbeTest {

    private static final String SOCKJS_INFO =
            "{\"entropy\":1,\"origins\":[\"*:*\"],\"cookie_needed\":true," + "\"websocket\":true}";

    private final CloseableHttpClient client =
            HttpClients.custom().disableAutomaticRetries().build();
    private final TransportProbe probe = new TransportProbe(client, 2000);

    @AfterEach
    void close() throws Exception {
        client.close();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "http://h:8080/gs-guide-websocket|http://h:8080/gs-guide-websocket/info",
                "ws://h:8080/gs-guide-websocket/|http://h:8080/gs-guide-websocket/info",
                "wss://h/chat|https://h/chat/info",
                "https://h:8443/a/b?x=1|https://h:8443/a/b/info",
            })
    void infoUriIsTheEndpointsOverHttp(String endpoint, String info) {
        assertThat(TransportProbe.infoUri(URI.create(endpoint))).hasToString(info);
    }

    @ParameterizedTest(name = "{0} {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                "200|application/json|{\"websocket\":true,\"cookie_needed\":false}|websocket|SockJS, transport websocket",
                "200|application/json|{\"websocket\":false}|xhr-streaming|without WebSocket",
                "404|text/html|<h1>Not Found</h1>|raw|no SockJS there",
                "200|text/html|<html>app shell</html>||-Jtransport=raw",
                "401|text/plain|||needs a logged-in user",
                "403|text/plain|||needs a logged-in user",
                "500|text/plain|boom||-Jtransport=raw",
            })
    void classifiesWhatInfoAnswered(int status, String type, String body, String transport, String says) {
        TransportProbe.Result result = probe.classify(
                URI.create("http://h:1/ws"), status, Integer.toString(status), null, type, body == null ? "" : body);

        assertThat(result.transport() == null ? null : result.transport().parameterValue())
                .isEqualTo(transport);
        assertThat(result.code()).isEqualTo(Integer.toString(status));
        assertThat(result.message()).contains("GET http://h:1/ws/info answered " + status, says);
    }

    @Test
    void redirectToLoginAsksForLoginSteps() {
        TransportProbe.Result result = probe.classify(URI.create("http://h:1/ws"), 302, "302", "/login", "", "");
        assertThat(result.ok()).isFalse();
        assertThat(result.message()).contains("redirecting to /login", "login steps");
    }

    @Test
    void asksInfoOnceWithTheCookieAndKeepsTheAnswer() throws Exception {
        try (FakeHttpServer server = new FakeHttpServer()) {
            server.route("/ws/info", r -> new Answer(200, "application/json", SOCKJS_INFO));

            TransportProbe.Result first = probe.transportFor(server.uri("/ws"), "SESSION=abc");
            TransportProbe.Result second = probe.transportFor(server.uri("/ws"), "SESSION=abc");

            assertThat(first.transport()).isEqualTo(Transport.WEBSOCKET);
            assertThat(second).isSameAs(first);
            assertThat(probe.known(server.uri("/ws"))).contains(Transport.WEBSOCKET);
            assertThat(server.requests).hasSize(1);
            assertThat(server.requests.get(0).header("Cookie")).isEqualTo("SESSION=abc");
        }
    }

    @Test
    void failuresAreAskedAgain() throws Exception {
        try (FakeHttpServer server = new FakeHttpServer()) {
            server.route("/ws/info", r -> new Answer(503, "text/plain", "busy"));

            assertThat(probe.known(server.uri("/ws"))).as("nothing asked yet").isEmpty();
            probe.transportFor(server.uri("/ws"), "");
            TransportProbe.Result again = probe.transportFor(server.uri("/ws"), "");

            assertThat(again.ok()).isFalse();
            assertThat(probe.known(server.uri("/ws")))
                    .as("a failure is not kept")
                    .isEmpty();
            assertThat(server.requests).hasSize(2);
        }
    }

    @Test
    void refusedConnectionSaysWhatWasAsked() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        TransportProbe.Result result = probe.probe(URI.create("http://127.0.0.1:" + port + "/ws"), "");

        assertThat(result.ok()).isFalse();
        assertThat(result.code()).isEqualTo(Failure.CONNECTION_REFUSED);
        assertThat(result.message())
                .startsWith("GET http://127.0.0.1:" + port + "/ws/info failed")
                .contains("Is the server up");
    }

    @Test
    void rawOnSockJsHintNamesTheWebsocketUrl() throws Exception {
        try (FakeHttpServer server = new FakeHttpServer()) {
            server.route("/gs/info", r -> new Answer(200, "application/json", SOCKJS_INFO));
            URI raw = URI.create(server.uri("/gs").toString().replace("http:", "ws:"));

            assertThat(probe.rawOnSockJsHint(raw, ""))
                    .hasValueSatisfying(hint -> assertThat(hint)
                            .contains(raw + "/websocket", "-Jendpoint=/gs/websocket", "-Jtransport=websocket"));
            assertThat(probe.rawOnSockJsHint(URI.create(raw + "-plain"), "")).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource({"400,true", "404,true", "200,true", "ConnectionRefused,false", "StompError,false"})
    void onlyHttpStatusesAreRefusedHandshakes(String code, boolean refused) {
        assertThat(TransportProbe.isRefusedHandshake(code)).isEqualTo(refused);
    }
}
