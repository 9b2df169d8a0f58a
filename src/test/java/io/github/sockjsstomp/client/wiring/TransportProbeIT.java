package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.AppStompClient;
import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.apps.SecuredChatApp;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.login.FormLogin;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.stream.Collectors;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.WebSocketHttpHeaders;

/** Transport {@code auto} against apps users run: the getting-started guide's (plain and SockJS), a secured one. */
class TransportProbeIT {

    private static GreetingApp plain;
    private static GreetingApp sockJs;
    private static CloseableHttpClient httpClient;
    private static AppStompClient stomp;

    @BeforeAll
    static void start() {
        plain = GreetingApp.start(false, 0);
        sockJs = GreetingApp.start(true, 0);
        httpClient = HttpClients.custom().disableAutomaticRetries().build();
        stomp = new AppStompClient();
    }

    @AfterAll
    static void stop() throws Exception {
        stomp.close();
        httpClient.close();
        plain.close();
        sockJs.close();
    }

    @Test
    void guidesPlainEndpointIsRaw() {
        TransportProbe.Result result = new TransportProbe(httpClient, 5000)
                .transportFor(URI.create(plain.baseUrl() + GreetingApp.ENDPOINT), "");

        assertThat(result.transport()).as(result.message()).isEqualTo(Transport.RAW);
        assertThat(result.code()).isEqualTo("404");
    }

    @Test
    void guidesSockJsEndpointIsSockJsWebsocket() {
        TransportProbe.Result result = new TransportProbe(httpClient, 5000)
                .transportFor(URI.create(sockJs.baseUrl() + GreetingApp.ENDPOINT), "");

        assertThat(result.transport()).as(result.message()).isEqualTo(Transport.WEBSOCKET);
    }

    @Test
    void rawOnTheSockJsEndpointIsExplainedAndTheNamedUrlWorks() throws Exception {
        String raw = "ws://127.0.0.1:" + sockJs.port() + GreetingApp.ENDPOINT;
        String refusal = stomp.connect(raw, false, new WebSocketHttpHeaders(), new StompHeaders())
                .refusal();
        Failure failure = Failure.of(new IllegalStateException(refusal));

        String hint = new TransportProbe(httpClient, 5000)
                .rawOnSockJsHint(URI.create(raw), "")
                .orElseThrow();

        assertThat(TransportProbe.isRefusedHandshake(failure.code()))
                .as(refusal)
                .isTrue();
        assertThat(hint).contains(raw + "/websocket", "-Jtransport=websocket");
        StompSession session = stomp.connect(raw + "/websocket", false, new WebSocketHttpHeaders(), new StompHeaders())
                .await();
        try {
            BlockingQueue<String> greetings = AppStompClient.subscribe(session, "/topic/greetings");
            assertThat(AppStompClient.sendUntilAnswered(session, greetings, "/app/hello", "{\"name\":\"Ada\"}", 2000))
                    .isEqualTo("{\"content\":\"Hello, Ada!\"}");
        } finally {
            session.disconnect();
        }
    }

    @Test
    void securedEndpointAsksForLoginThenProbesWithTheSessionCookie() {
        try (SecuredChatApp app = SecuredChatApp.start(true, SecuredChatApp.StompAuth.HANDSHAKE_AND_CSRF, 3)) {
            URI endpoint = URI.create(app.baseUrl() + SecuredChatApp.ENDPOINT);
            TransportProbe probe = new TransportProbe(httpClient, 5000);
            BasicCookieStore cookies = new BasicCookieStore();

            TransportProbe.Result before = probe.transportFor(endpoint, "");
            new FormLogin(httpClient, cookies, 5000).login(URI.create(app.baseUrl() + "/login"), "bob", "bob-pass");
            String sessionCookie = cookies.getCookies().stream()
                    .map(c -> c.getName() + "=" + c.getValue())
                    .collect(Collectors.joining("; "));
            TransportProbe.Result after = probe.transportFor(endpoint, sessionCookie);

            assertThat(before.ok()).isFalse();
            assertThat(before.code()).isEqualTo("302");
            assertThat(before.message()).contains("/login", "login steps");
            assertThat(after.transport()).as(after.message()).isEqualTo(Transport.WEBSOCKET);
        }
    }

    /** The probe's answers and the hint as a user reads them in a connect step: the URL asked, the answer, what next. */
    @Test
    void whatAUserReadsNamesTheUrlAskedItsAnswerAndTheTransport() {
        TransportProbe probe = new TransportProbe(httpClient, 5000);
        String plainInfo = plain.baseUrl() + GreetingApp.ENDPOINT + "/info";
        String sockJsInfo = sockJs.baseUrl() + GreetingApp.ENDPOINT + "/info";
        String raw = "ws://127.0.0.1:" + sockJs.port() + GreetingApp.ENDPOINT;

        assertThat(probe.transportFor(URI.create(plain.baseUrl() + GreetingApp.ENDPOINT), "")
                        .message())
                .isEqualTo("GET " + plainInfo + " answered 404: no SockJS there, transport raw (a plain WebSocket on "
                        + "ws://127.0.0.1:" + plain.port() + GreetingApp.ENDPOINT + ")");
        assertThat(probe.transportFor(URI.create(sockJs.baseUrl() + GreetingApp.ENDPOINT), "")
                        .message())
                .isEqualTo("GET " + sockJsInfo + " answered 200: SockJS, transport websocket");
        assertThat(probe.rawOnSockJsHint(URI.create(raw), "").orElseThrow())
                .isEqualTo(raw + " is a SockJS endpoint (GET " + sockJsInfo + " answered SockJS's JSON), so a plain "
                        + "WebSocket handshake there is refused. Use -Jtransport=websocket (or auto) with this endpoint, "
                        + "or keep -Jtransport=raw with -Jendpoint=" + GreetingApp.ENDPOINT + "/websocket (" + raw
                        + "/websocket, SockJS's plain WebSocket URL).");
    }
}
