package io.github.sockjsstomp.client.login;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.login.FakeHttpServer.Answer;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.cookie.BasicClientCookie;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.messaging.simp.stomp.StompHeaders;

class CsrfFetchTest {

    private final CloseableHttpClient client =
            HttpClients.custom().disableAutomaticRetries().build();
    private final BasicCookieStore cookies = new BasicCookieStore();

    @AfterEach
    void close() throws Exception {
        client.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"token\":\"t1\",\"headerName\":\"X-CSRF-TOKEN\",\"parameterName\":\"_csrf\"}|X-CSRF-TOKEN|t1",
                "{\"parameterName\":\"_csrf\",\"headerName\":\"X-XSRF\",\"token\":\"t2\"}|X-XSRF|t2",
                "{\"token\":\"t3\"}|X-CSRF-TOKEN|t3",
                "<meta name=\"_csrf\" content=\"t4\"/><meta name=\"_csrf_header\" content=\"X-CSRF-TOKEN\"/>|X-CSRF-TOKEN|t4",
                "<meta content='t5' name='_csrf'><meta content='X-Other' name='_csrf_header'>|X-Other|t5",
                "<form method=post><input type=hidden name=_csrf value=t6></form>|X-CSRF-TOKEN|t6",
            })
    void readsTheWaysSpringAppsHandItOut(String body, String header, String token) {
        assertThat(CsrfFetch.parse(body)).isEqualTo(new CsrfFetch.Found(header, token));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"{\"token\":\"\"}", "{not json", "<html>no token</html>", "''"})
    void noTokenIsNull(String body) {
        assertThat(CsrfFetch.parse(body)).isNull();
    }

    @Test
    void fetchesWithTheUsersCookieAndAddsTheHeaderToConnect() throws Exception {
        BasicClientCookie session = new BasicClientCookie("JSESSIONID", "s9");
        session.setDomain("127.0.0.1");
        session.setPath("/");
        cookies.addCookie(session);
        try (FakeHttpServer server = new FakeHttpServer()) {
            server.route(
                    "/csrf",
                    r -> new Answer(
                            200,
                            "application/json",
                            "{\"token\":\"tok\",\"headerName\":\"X-CSRF-TOKEN\",\"parameterName\":\"_csrf\"}"));

            CsrfFetch.Result result = new CsrfFetch(client, cookies, 2000).fetch(server.uri("/csrf"));
            StompHeaders connect = new StompHeaders();
            result.addTo(connect);

            assertThat(result.ok()).isTrue();
            assertThat(result.step().label()).isEqualTo("csrf");
            assertThat(connect.getFirst("X-CSRF-TOKEN")).isEqualTo("tok");
            assertThat(server.requests.get(0).header("Cookie")).isEqualTo("JSESSIONID=s9");
            assertThat(result.toString()).doesNotContain("tok\"");
        }
    }

    @Test
    void aRedirectToTheLoginPageIsNotFollowed() throws Exception {
        try (FakeHttpServer server = new FakeHttpServer()) {
            server.route("/csrf", r -> new Answer(302, "text/plain", "", "Location", "/login"));
            server.route("/login", r -> new Answer(200, "text/html", "<input type=hidden name=_csrf value=anon>"));

            CsrfFetch.Result result = new CsrfFetch(client, cookies, 2000).fetch(server.uri("/csrf"));

            assertThat(result.ok()).isFalse();
            assertThat(result.step().code()).isEqualTo("302");
            assertThat(result.step().message()).contains("redirecting to /login (log in first?)");
            assertThat(server.requests).hasSize(1);
        }
    }

    @Test
    void aPageWithoutTokenFails() throws Exception {
        try (FakeHttpServer server = new FakeHttpServer()) {
            server.route("/chat", r -> new Answer(200, "text/html", "<html><body>chat</body></html>"));

            CsrfFetch.Result result = new CsrfFetch(client, cookies, 2000).fetch(server.uri("/chat"));

            assertThat(result.ok()).isFalse();
            assertThat(result.step().code()).isEqualTo("NoCsrfToken");
        }
    }
}
