package io.github.sockjsstomp.apps;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.SecuredChatApp.StompAuth;
import java.net.http.HttpResponse;
import java.util.concurrent.BlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.WebSocketHttpHeaders;

/** The secured chat refuses and admits STOMP sessions the way Spring Security apps do. */
class SecuredChatAppTest {

    private static final Pattern META_CSRF = Pattern.compile("<meta name=\"_csrf\" content=\"([^\"]+)\"");

    private static SecuredChatApp csrfApp;
    private static SecuredChatApp bearerHandshakeApp;
    private static SecuredChatApp bearerConnectApp;
    private static AppStompClient stomp;

    @BeforeAll
    static void start() {
        csrfApp = SecuredChatApp.start(false, StompAuth.HANDSHAKE_AND_CSRF, 10);
        bearerHandshakeApp = SecuredChatApp.start(true, StompAuth.HANDSHAKE, 10);
        bearerConnectApp = SecuredChatApp.start(false, StompAuth.CONNECT_HEADER, 10);
        stomp = new AppStompClient();
    }

    @AfterAll
    static void stop() {
        stomp.close();
        csrfApp.close();
        bearerHandshakeApp.close();
        bearerConnectApp.close();
    }

    @Test
    void formLoginRedirectsHomeOrToLoginError() throws Exception {
        HttpResponse<String> good = new AppHttp(csrfApp.baseUrl()).formLogin("user-3", "pass-3");
        HttpResponse<String> bad = new AppHttp(csrfApp.baseUrl()).formLogin("alice", "wrong");

        assertThat(good.statusCode()).isEqualTo(302);
        assertThat(good.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/"));
        assertThat(bad.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/login?error"));
    }

    @Test
    void pagesHandTheCsrfTokenToJavaScript() throws Exception {
        AppHttp http = new AppHttp(csrfApp.baseUrl());
        http.formLogin("alice", "alice-pass");

        String chat = http.get("/chat").body();
        String json = http.get("/csrf").body();

        assertThat(chat)
                .contains("<meta name=\"_csrf_header\" content=\"X-CSRF-TOKEN\"/>")
                .containsPattern(META_CSRF);
        assertThat(json).contains("\"headerName\":\"X-CSRF-TOKEN\"", "\"parameterName\":\"_csrf\"", "\"token\":\"");
    }

    @Test
    void handshakeWithoutLoginIsRedirectedToTheLoginPage() throws Exception {
        HttpResponse<String> get = new AppHttp(csrfApp.baseUrl()).get(SecuredChatApp.ENDPOINT);
        String refusal = stomp.connect(wsUrl(csrfApp), false, new WebSocketHttpHeaders(), new StompHeaders())
                .refusal();

        assertThat(get.statusCode()).isEqualTo(302);
        assertThat(get.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
        // Tomcat's client follows the redirect and reports the login page's status.
        assertThat(refusal).contains("[200] did not permit the HTTP upgrade");
    }

    @Test
    void connectWithoutCsrfTokenIsRefused() throws Exception {
        AppHttp http = new AppHttp(csrfApp.baseUrl());
        http.formLogin("alice", "alice-pass");

        String refusal = stomp.connect(wsUrl(csrfApp), false, cookie(http), new StompHeaders())
                .refusal();

        // Spring's ERROR frame names no cause ("Failed to send message to ...[clientInboundChannel]").
        assertThat(refusal).startsWith("ERROR");
    }

    @Test
    void loggedInUserWithCsrfTokenGetsItsEcho() throws Exception {
        AppHttp http = new AppHttp(csrfApp.baseUrl());
        http.formLogin("alice", "alice-pass");
        Matcher token = META_CSRF.matcher(http.get("/chat").body());
        assertThat(token.find()).isTrue();
        StompHeaders connect = new StompHeaders();
        connect.add("X-CSRF-TOKEN", token.group(1));

        StompSession session =
                stomp.connect(wsUrl(csrfApp), false, cookie(http), connect).await();

        assertThat(echo(session, "hi")).isEqualTo("{\"principal\":\"alice\",\"payload\":\"hi\"}");
    }

    @Test
    void bearerOnTheSockJsHandshakeIsTheUser() throws Exception {
        WebSocketHttpHeaders handshake = new WebSocketHttpHeaders();
        handshake.add("Authorization", "Bearer token-bob");

        StompSession session = stomp.connect(
                        bearerHandshakeApp.baseUrl() + SecuredChatApp.ENDPOINT, true, handshake, new StompHeaders())
                .await();

        assertThat(echo(session, "yo")).isEqualTo("{\"principal\":\"bob\",\"payload\":\"yo\"}");
    }

    @Test
    void unknownBearerOnTheHandshakeIsRefused() throws Exception {
        WebSocketHttpHeaders handshake = new WebSocketHttpHeaders();
        handshake.add("Authorization", "Bearer token-mallory");

        String refusal = stomp.connect(
                        bearerHandshakeApp.baseUrl() + SecuredChatApp.ENDPOINT, true, handshake, new StompHeaders())
                .refusal();

        assertThat(refusal).contains("401");
    }

    @Test
    void bearerOnConnectIsTheUser() throws Exception {
        StompHeaders connect = new StompHeaders();
        connect.add("Authorization", "Bearer token-user-7");

        StompSession session = stomp.connect(wsUrl(bearerConnectApp), false, new WebSocketHttpHeaders(), connect)
                .await();

        assertThat(echo(session, "x")).isEqualTo("{\"principal\":\"user-7\",\"payload\":\"x\"}");
    }

    @Test
    void connectWithoutBearerIsRefusedWhereConnectCarriesIt() throws Exception {
        String refusal = stomp.connect(wsUrl(bearerConnectApp), false, new WebSocketHttpHeaders(), new StompHeaders())
                .refusal();
        assertThat(refusal).startsWith("ERROR");
    }

    private static String wsUrl(SecuredChatApp app) {
        return "ws://127.0.0.1:" + app.port() + SecuredChatApp.ENDPOINT;
    }

    private static WebSocketHttpHeaders cookie(AppHttp http) {
        WebSocketHttpHeaders headers = new WebSocketHttpHeaders();
        headers.add("Cookie", http.cookieHeader());
        return headers;
    }

    private static String echo(StompSession session, String text) throws InterruptedException {
        try {
            BlockingQueue<String> answers = AppStompClient.subscribe(session, "/user/queue/echo");
            return AppStompClient.sendUntilAnswered(session, answers, "/app/echo", text, 2000);
        } finally {
            session.disconnect();
        }
    }
}
