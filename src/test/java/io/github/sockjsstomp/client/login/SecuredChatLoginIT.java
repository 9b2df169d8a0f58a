package io.github.sockjsstomp.client.login;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.AppStompClient;
import io.github.sockjsstomp.apps.SecuredChatApp;
import io.github.sockjsstomp.apps.SecuredChatApp.StompAuth;
import io.github.sockjsstomp.client.ConnectStepResult;
import java.net.URI;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.stream.Collectors;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.WebSocketHttpHeaders;

/**
 * A virtual user's way into a Spring Security chat with the client layer's classes only: form login through
 * its own cookie store, the CSRF token from a page or JSON, then a STOMP session (Spring's client) carrying
 * the session cookie on the handshake and the token on CONNECT; and the same with bearer tokens.
 */
class SecuredChatLoginIT {

    private static final int TIMEOUT_MILLIS = 5000;
    /** As a users file has them: login,passcode. */
    private static final List<String> USERS = List.of("alice,alice-pass", "user-5,pass-5");

    private static SecuredChatApp plain;
    private static SecuredChatApp sockJs;
    private static SecuredChatApp bearerOnConnect;
    private static CloseableHttpClient httpClient;
    private static AppStompClient stomp;

    @BeforeAll
    static void start() {
        plain = SecuredChatApp.start(false, StompAuth.HANDSHAKE_AND_CSRF, 10);
        sockJs = SecuredChatApp.start(true, StompAuth.HANDSHAKE_AND_CSRF, 10);
        bearerOnConnect = SecuredChatApp.start(false, StompAuth.CONNECT_HEADER, 10);
        // Shaped as SharedStompClients builds it: no retries, cookies only in each user's own store.
        httpClient = HttpClients.custom().disableAutomaticRetries().build();
        stomp = new AppStompClient();
    }

    @AfterAll
    static void stop() throws Exception {
        stomp.close();
        httpClient.close();
        plain.close();
        sockJs.close();
        bearerOnConnect.close();
    }

    @ParameterizedTest(name = "user {0}, sockjs {1}, token from {2}")
    @CsvSource({"0,false,/csrf", "1,false,/chat", "0,true,/chat", "1,true,/csrf"})
    void formLoginThenCsrfThenEchoForThatUser(int line, boolean overSockJs, String csrfPath) throws Exception {
        SecuredChatApp app = overSockJs ? sockJs : plain;
        String[] user = USERS.get(line).split(",", 2);
        BasicCookieStore cookies = new BasicCookieStore();

        List<ConnectStepResult> login = new FormLogin(httpClient, cookies, TIMEOUT_MILLIS)
                .login(URI.create(app.baseUrl() + "/login"), user[0], user[1]);
        CsrfFetch.Result csrf =
                new CsrfFetch(httpClient, cookies, TIMEOUT_MILLIS).fetch(URI.create(app.baseUrl() + csrfPath));

        assertThat(login).extracting(ConnectStepResult::label).containsExactly("login", "login");
        assertThat(login)
                .allSatisfy(step -> assertThat(step.ok()).as(step.message()).isTrue());
        assertThat(csrf.ok()).as(csrf.step().message()).isTrue();
        assertThat(csrf.headerName()).isEqualTo("X-CSRF-TOKEN");

        URI endpoint =
                URI.create((overSockJs ? app.baseUrl() : "ws://127.0.0.1:" + app.port()) + SecuredChatApp.ENDPOINT);
        WebSocketHttpHeaders handshake = new WebSocketHttpHeaders();
        handshake.add("Cookie", cookieHeader(cookies));
        StompHeaders connect = new StompHeaders();
        csrf.addTo(connect);

        StompSession session = stomp.connect(endpoint.toString(), overSockJs, handshake, connect)
                .await();

        assertThat(echo(session, "hello")).isEqualTo("{\"principal\":\"" + user[0] + "\",\"payload\":\"hello\"}");
    }

    @Test
    void wrongPasswordIsRefusedWithTheErrorRedirect() {
        BasicCookieStore cookies = new BasicCookieStore();
        URI loginPage = URI.create(plain.baseUrl() + "/login");

        List<ConnectStepResult> login =
                new FormLogin(httpClient, cookies, TIMEOUT_MILLIS).login(loginPage, "alice", "not-her-password");

        assertThat(login.get(1).ok()).isFalse();
        assertThat(login.get(1).code()).isEqualTo("302");
        assertThat(login.get(1).message())
                .isEqualTo("form login as alice at " + loginPage + " refused: redirected to /login?error");
    }

    @Test
    void csrfBeforeLoginIsARedirectToTheLoginPage() {
        BasicCookieStore cookies = new BasicCookieStore();

        CsrfFetch.Result csrf =
                new CsrfFetch(httpClient, cookies, TIMEOUT_MILLIS).fetch(URI.create(plain.baseUrl() + "/csrf"));

        assertThat(csrf.ok()).isFalse();
        assertThat(csrf.step().message()).contains("redirecting to", "/login");
    }

    @Test
    void bearerOnTheHandshakeIsTheUser() throws Exception {
        try (SecuredChatApp app = SecuredChatApp.start(true, StompAuth.HANDSHAKE, 10)) {
            WebSocketHttpHeaders handshake = new WebSocketHttpHeaders();
            new BearerToken("token-user-3").addTo(handshake);

            StompSession session = stomp.connect(
                            app.baseUrl() + SecuredChatApp.ENDPOINT, true, handshake, new StompHeaders())
                    .await();

            assertThat(echo(session, "b")).isEqualTo("{\"principal\":\"user-3\",\"payload\":\"b\"}");
        }
    }

    @Test
    void bearerOnConnectIsTheUser() throws Exception {
        StompHeaders connect = new StompHeaders();
        new BearerToken("Bearer token-bob").addTo(connect);

        StompSession session = stomp.connect(
                        "ws://127.0.0.1:" + bearerOnConnect.port() + SecuredChatApp.ENDPOINT,
                        false,
                        new WebSocketHttpHeaders(),
                        connect)
                .await();

        assertThat(echo(session, "c")).isEqualTo("{\"principal\":\"bob\",\"payload\":\"c\"}");
    }

    private static String echo(StompSession session, String text) throws InterruptedException {
        try {
            BlockingQueue<String> answers = AppStompClient.subscribe(session, "/user/queue/echo");
            return AppStompClient.sendUntilAnswered(session, answers, "/app/echo", text, 2000);
        } finally {
            session.disconnect();
        }
    }

    /** Every cookie the steps stored: the one app they talked to set them all. */
    private static String cookieHeader(BasicCookieStore cookies) {
        return cookies.getCookies().stream()
                .map(c -> c.getName() + "=" + c.getValue())
                .collect(Collectors.joining("; "));
    }
}
