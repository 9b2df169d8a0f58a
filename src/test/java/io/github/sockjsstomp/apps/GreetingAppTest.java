package io.github.sockjsstomp.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.WebSocketHttpHeaders;

/** The getting-started app answers a plain Spring STOMP client as the guide's JavaScript client sees it. */
class GreetingAppTest {

    private static GreetingApp plain;
    private static GreetingApp sockJs;
    private static AppStompClient stomp;

    @BeforeAll
    static void start() {
        plain = GreetingApp.start(false, 0);
        sockJs = GreetingApp.start(true, 0);
        stomp = new AppStompClient();
    }

    @AfterAll
    static void stop() {
        stomp.close();
        plain.close();
        sockJs.close();
    }

    @Test
    void plainEndpointGreetsOverRawWebSocket() throws Exception {
        String url = "ws://127.0.0.1:" + plain.port() + GreetingApp.ENDPOINT;
        assertThat(greet(url, false, "Ada", 2000)).isEqualTo("{\"content\":\"Hello, Ada!\"}");
    }

    @Test
    void sockJsEndpointGreetsOverSockJs() throws Exception {
        String url = sockJs.baseUrl() + GreetingApp.ENDPOINT;
        assertThat(greet(url, true, "Grace", 2000)).isEqualTo("{\"content\":\"Hello, Grace!\"}");
    }

    /**
     * As published, the app sleeps in every greeting on Spring's default inbound pool: twice the cores, so it
     * answers twice the cores greetings a second (docs/capacity.md's steps rest on it).
     */
    @Test
    void guideAsPublishedAnswersAfterItsPauseOnSpringsDefaultInboundPool() throws Exception {
        try (GreetingApp guide = GreetingApp.start()) {
            String url = "ws://127.0.0.1:" + guide.port() + GreetingApp.ENDPOINT;
            assertThat(greet(url, false, "Linus", 3000)).isEqualTo("{\"content\":\"Hello, Linus!\"}");
            int cores = Runtime.getRuntime().availableProcessors();
            assertThat(guide.inboundThreads()).isEqualTo(2 * cores);
            assertThat(guide.greetingsPerSecond()).isEqualTo(2.0 * cores);
        }
        assertThat(plain.greetingsPerSecond()).as("no pause").isInfinite();
    }

    @Test
    void onlyTheSockJsVariantHasAnInfoUrl() throws Exception {
        var plainInfo = new AppHttp(plain.baseUrl()).get(GreetingApp.ENDPOINT + "/info");
        var sockJsInfo = new AppHttp(sockJs.baseUrl()).get(GreetingApp.ENDPOINT + "/info");

        assertThat(plainInfo.statusCode()).isEqualTo(404);
        assertThat(sockJsInfo.statusCode()).isEqualTo(200);
        assertThat(sockJsInfo.body()).contains("\"websocket\":true");
    }

    @Test
    void rawWebSocketOnTheSockJsEndpointIsRefused() throws Exception {
        String url = "ws://127.0.0.1:" + sockJs.port() + GreetingApp.ENDPOINT;
        String refusal = stomp.connect(url, false, new WebSocketHttpHeaders(), new StompHeaders())
                .refusal();
        assertThat(refusal).contains("HTTP response from the server [");
    }

    private static String greet(String url, boolean overSockJs, String name, long waitMillis) throws Exception {
        StompSession session = stomp.connect(url, overSockJs, new WebSocketHttpHeaders(), new StompHeaders())
                .await();
        try {
            BlockingQueue<String> greetings = AppStompClient.subscribe(session, "/topic/greetings");
            return AppStompClient.sendUntilAnswered(
                    session, greetings, "/app/hello", "{\"name\":\"" + name + "\"}", waitMillis);
        } finally {
            session.disconnect();
        }
    }
}
