package io.github.sockjsstomp.client.login;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.Json;
import java.io.IOException;
import java.net.URI;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * The CSRF token a Spring app wants on STOMP CONNECT, fetched after the login the ways such apps hand it to
 * their JavaScript: a JSON endpoint returning Spring's CsrfToken ({@code {"token":...,"headerName":...}}), or
 * a page with {@code <meta name="_csrf" content>} and {@code <meta name="_csrf_header" content>} (a form's
 * hidden {@code _csrf} input will do). Through the user's cookie store, since the token belongs to its
 * session; one GET, redirects not followed (a redirect to the login page means: log in first).
 */
public final class CsrfFetch {

    public static final String LABEL = "csrf";
    /** Spring Security's header name, used when the page or JSON does not name one. */
    public static final String DEFAULT_HEADER_NAME = "X-CSRF-TOKEN";

    /**
     * A fetch's outcome: its step, and the header to add to CONNECT when it succeeded (else nulls).
     */
    public record Result(ConnectStepResult step, String headerName, String token) {

        public boolean ok() {
            return step.ok() && token != null;
        }

        /** Adds the header to CONNECT's headers; does nothing when the fetch failed. */
        public void addTo(StompHeaders connectHeaders) {
            if (ok()) {
                connectHeaders.set(headerName, token);
            }
        }

        @Override
        public String toString() {
            // Never the token: results end up in log lines.
            return "CsrfFetch.Result[" + step.code() + ", " + headerName + "]";
        }
    }

    /** A token and the header it goes in. */
    record Found(String headerName, String token) {}

    private final CloseableHttpClient client;
    private final BasicCookieStore cookies;
    private final RequestConfig requestConfig;

    public CsrfFetch(CloseableHttpClient client, BasicCookieStore cookies, RequestConfig requestConfig) {
        if (client == null || cookies == null || requestConfig == null) {
            throw new IllegalArgumentException("client, cookies and requestConfig are required");
        }
        this.client = client;
        this.cookies = cookies;
        this.requestConfig = HttpExchange.config(requestConfig, false);
    }

    public CsrfFetch(CloseableHttpClient client, BasicCookieStore cookies, int timeoutMillis) {
        this(client, cookies, HttpExchange.timeouts(timeoutMillis));
    }

    /** GETs {@code uri} (a page or a JSON endpoint) and reads the token from it. */
    public Result fetch(URI uri) {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        HttpExchange.Response answer;
        try {
            answer = HttpExchange.execute(client, new HttpGet(uri), requestConfig, cookies);
        } catch (IOException | RuntimeException e) {
            Failure failure = Failure.of(e);
            return failed(ConnectStepResult.failure(
                    LABEL, failure.code(), "GET " + uri + ": " + failure.message(), startMillis, startNanos));
        }
        String code = Integer.toString(answer.status());
        if (answer.status() / 100 != 2) {
            String where = answer.isRedirect() ? " redirecting to " + answer.location() + " (log in first?)" : "";
            return failed(new ConnectStepResult(
                    LABEL,
                    false,
                    code,
                    "GET " + uri + " answered " + answer.statusLine() + where,
                    startMillis,
                    System.nanoTime() - startNanos,
                    answer.bytes(),
                    answer.stepBody()));
        }
        Found found = parse(answer.body());
        if (found == null) {
            return failed(new ConnectStepResult(
                    LABEL,
                    false,
                    "NoCsrfToken",
                    "GET " + uri + " answered no CSRF token: "
                            + "neither JSON with \"token\" nor <meta name=\"_csrf\"> nor an _csrf input",
                    startMillis,
                    System.nanoTime() - startNanos,
                    answer.bytes(),
                    answer.stepBody()));
        }
        ConnectStepResult step = ConnectStepResult.success(
                LABEL,
                code,
                "CSRF token for " + found.headerName() + " from " + uri,
                startMillis,
                startNanos,
                answer.bytes(),
                answer.stepBody());
        return new Result(step, found.headerName(), found.token());
    }

    /** The token in a CsrfToken JSON or an HTML page, or null if there is none. */
    static Found parse(String body) {
        String text = body.strip();
        if (text.startsWith("{")) {
            try {
                JsonNode json = Json.mapper().readTree(text);
                String token = json.path("token").asText(null);
                String header = json.path("headerName").asText(DEFAULT_HEADER_NAME);
                return token == null || token.isEmpty() ? null : new Found(header, token);
            } catch (IOException e) {
                return null;
            }
        }
        String token = HtmlTags.valueOfNamed(text, "meta", "_csrf", "content");
        if (token == null) {
            token = HtmlTags.valueOfNamed(text, "input", "_csrf", "value");
        }
        String header = HtmlTags.valueOfNamed(text, "meta", "_csrf_header", "content");
        return token == null || token.isEmpty()
                ? null
                : new Found(header == null || header.isBlank() ? DEFAULT_HEADER_NAME : header, token);
    }

    private static Result failed(ConnectStepResult step) {
        return new Result(step, null, null);
    }
}
