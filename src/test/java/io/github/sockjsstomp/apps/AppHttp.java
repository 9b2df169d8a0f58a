package io.github.sockjsstomp.apps;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Test helper: a browser-like HTTP client with its own cookies, redirects not followed, for the app tests. */
final class AppHttp {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    final CookieManager cookies = new CookieManager();
    private final HttpClient client = HttpClient.newBuilder()
            .cookieHandler(cookies)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(TIMEOUT)
            .build();
    private final String baseUrl;

    AppHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT);
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The login page's form, posted as a browser does; the answer (a redirect) as it came. */
    HttpResponse<String> formLogin(String user, String password) throws IOException, InterruptedException {
        HttpResponse<String> page = get("/login");
        Matcher csrf = CSRF_INPUT.matcher(page.body());
        if (!csrf.find()) {
            throw new AssertionError("No _csrf input on the login page: " + page.body());
        }
        String form = "username=" + encode(user) + "&password=" + encode(password) + "&_csrf=" + encode(csrf.group(1));
        HttpRequest post = HttpRequest.newBuilder(URI.create(baseUrl + "/login"))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        return client.send(post, HttpResponse.BodyHandlers.ofString());
    }

    /** The Cookie header the client holds for the app. */
    String cookieHeader() {
        return String.join(
                "; ",
                cookies.getCookieStore().get(URI.create(baseUrl)).stream()
                        .map(c -> c.getName() + "=" + c.getValue())
                        .toList());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
