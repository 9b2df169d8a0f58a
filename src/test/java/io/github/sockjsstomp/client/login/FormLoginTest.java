package io.github.sockjsstomp.client.login;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.login.FakeHttpServer.Answer;
import java.util.List;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FormLoginTest {

    private static final String SPRING_PAGE = "<form class=\"login-form\" method=\"post\" action=\"/login\">"
            + "<input type=\"text\" id=\"username\" name=\"username\" required autofocus>"
            + "<input type=\"password\" id=\"password\" name=\"password\" required>"
            + "<input name=\"_csrf\" type=\"hidden\" value=\"tok-1\" />"
            + "<button type=\"submit\">Sign in</button></form>";

    private final CloseableHttpClient client =
            HttpClients.custom().disableAutomaticRetries().build();
    private final BasicCookieStore cookies = new BasicCookieStore();
    private final FormLogin login = new FormLogin(client, cookies, 2000);
    private FakeHttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = new FakeHttpServer();
    }

    @AfterEach
    void close() throws Exception {
        server.close();
        client.close();
    }

    @Test
    void postsTheFormWithItsCsrfTokenAndTheSessionCookie() {
        server.route(
                "/login",
                r -> r.method().equals("GET")
                        ? new Answer(200, "text/html", SPRING_PAGE, "Set-Cookie", "JSESSIONID=s1; Path=/; HttpOnly")
                        : new Answer(302, "text/plain", "", "Location", "/", "Set-Cookie", "JSESSIONID=s2; Path=/"));

        List<ConnectStepResult> steps = login.login(server.uri("/login"), "alice", "alice-pass");

        assertThat(steps).extracting(ConnectStepResult::label).containsExactly("login", "login");
        assertThat(steps).allMatch(ConnectStepResult::ok);
        assertThat(steps.get(1).message()).endsWith("redirected to /");
        FakeHttpServer.Request post = server.requests.get(1);
        assertThat(post.body()).isEqualTo("_csrf=tok-1&username=alice&password=alice-pass");
        assertThat(post.header("Cookie")).isEqualTo("JSESSIONID=s1");
        assertThat(cookies.getCookies()).extracting(c -> c.getValue()).containsExactly("s2");
    }

    @Test
    void redirectToErrorIsARefusal() {
        server.route(
                "/login",
                r -> r.method().equals("GET")
                        ? new Answer(200, "text/html", SPRING_PAGE)
                        : new Answer(302, "text/plain", "", "Location", "/login?error"));

        List<ConnectStepResult> steps = login.login(server.uri("/login"), "alice", "wrong");

        assertThat(steps.get(1).ok()).isFalse();
        assertThat(steps.get(1).code()).isEqualTo("302");
        assertThat(steps.get(1).message())
                .isEqualTo("form login as alice at " + server.uri("/login") + " refused: redirected to /login?error");
    }

    @Test
    void customFieldsSingleQuotesAndAnotherAction() {
        String page = "<form action='/auth' method='POST'><input type='hidden' value='t2' name='csrf_token'>"
                + "<input name='email'><input type='password' name='secret'></form>";
        server.route("/signin", r -> new Answer(200, "text/html", page));
        server.route("/auth", r -> new Answer(303, "text/plain", "", "Location", "http://elsewhere/home"));

        List<ConnectStepResult> steps =
                login.login(server.uri("/signin"), "bob", "pw", new FormLogin.Fields("email", "secret", "csrf_token"));

        assertThat(steps.get(1).ok()).isTrue();
        assertThat(server.requests.get(1).path()).isEqualTo("/auth");
        assertThat(server.requests.get(1).body()).isEqualTo("csrf_token=t2&email=bob&secret=pw");
    }

    @Test
    void theLoginFormAnsweredAgainIsARefusal() {
        server.route("/login", r -> new Answer(200, "text/html", SPRING_PAGE));

        ConnectStepResult post =
                login.login(server.uri("/login"), "alice", "wrong").get(1);

        assertThat(post.ok()).isFalse();
        assertThat(post.message()).endsWith("refused: answered the login form again");
    }

    @Test
    void forbiddenWithoutCsrfInputSaysSo() {
        server.route(
                "/login",
                r -> r.method().equals("GET")
                        ? new Answer(200, "text/html", "<form method=post><input type=password name=password></form>")
                        : new Answer(403, "text/plain", "Forbidden"));

        ConnectStepResult post =
                login.login(server.uri("/login"), "alice", "alice-pass").get(1);

        assertThat(post.code()).isEqualTo("403");
        assertThat(post.message()).contains("answered 403 Forbidden", "the login page had no _csrf input");
    }

    @Test
    void aMissingLoginPageStopsAtTheGet() {
        List<ConnectStepResult> steps = login.login(server.uri("/nowhere"), "alice", "alice-pass");

        assertThat(steps).hasSize(1);
        assertThat(steps.get(0).code()).isEqualTo("404");
        assertThat(steps.get(0).message()).startsWith("GET login page " + server.uri("/nowhere"));
    }
}
