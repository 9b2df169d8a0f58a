package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import io.github.sockjsstomp.client.login.CsrfFetch;
import io.github.sockjsstomp.client.login.FormLogin;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.http.Header;
import org.apache.http.HttpEntity;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.cookie.Cookie;
import org.apache.http.cookie.CookieOrigin;
import org.apache.http.cookie.CookieSpec;
import org.apache.http.cookie.MalformedCookieException;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.cookie.RFC6265CookieSpecProvider;
import org.apache.http.message.BasicHeader;
import org.apache.http.protocol.BasicHttpContext;
import org.apache.http.util.EntityUtils;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * The HTTP steps a browser takes before it opens the SockJS session (the index page, then a clientPull
 * request), through the virtual user's own cookie store, and the Cookie header that carries the result onto
 * the WebSocket handshake and every SockJS request.
 */
final class HttpLogin {

    /** Bodies are kept for View Results Tree, up to this many characters. */
    static final int MAX_BODY_CHARS = 4096;

    /**
     * RFC 6265 cookie matching, parsing and formatting, for every user of the JVM: it keeps no state of its own
     * (HttpClient marks it thread-safe and shares one per registry), and one per user was 0.4 KB of each.
     */
    private static final CookieSpec COOKIE_SPEC = new RFC6265CookieSpecProvider().create(new BasicHttpContext());
    /** One request config per timeout for every user of the JVM: immutable, and the timeouts of a test are few. */
    private static final Map<Integer, RequestConfig> REQUEST_CONFIGS = new ConcurrentHashMap<>();

    private final CloseableHttpClient client;
    private final BasicCookieStore cookies = new BasicCookieStore();
    private final RequestConfig requestConfig;
    /** The CSRF token of the last login, for CONNECT; null when none was fetched. */
    private volatile CsrfFetch.Result csrf;

    HttpLogin(CloseableHttpClient client, int timeoutMillis) {
        this.client = client;
        this.requestConfig = REQUEST_CONFIGS.computeIfAbsent(timeoutMillis, HttpLogin::requestConfig);
    }

    private static RequestConfig requestConfig(int timeoutMillis) {
        return RequestConfig.custom()
                .setConnectTimeout(timeoutMillis)
                .setConnectionRequestTimeout(timeoutMillis)
                .setSocketTimeout(timeoutMillis)
                .build();
    }

    /**
     * The user's web login (see {@link WebLogin}), each step skipped when its path is empty; stops at the first
     * failure. A CSRF token it fetched is kept for the next CONNECT.
     */
    List<ConnectStepResult> steps(UserSettings settings) {
        WebLogin web = settings.web();
        List<ConnectStepResult> steps = new ArrayList<>(4);
        csrf = null;
        if (!web.indexPath().isEmpty()
                && !add(steps, get("index", settings.server().httpUri(web.indexPath())))) {
            return steps;
        }
        if (!web.pullPath().isEmpty()
                && !add(steps, get("clientPull", settings.server().httpUri(web.pullPath())))) {
            return steps;
        }
        if (!web.formLoginPath().isEmpty()) {
            for (ConnectStepResult step : new FormLogin(client, cookies, requestConfig)
                    .login(
                            settings.server().httpUri(web.formLoginPath()),
                            settings.credentials().login(),
                            settings.credentials().passcode())) {
                if (!add(steps, step)) {
                    return steps;
                }
            }
        }
        if (!web.csrfPath().isEmpty()) {
            CsrfFetch.Result fetched = new CsrfFetch(client, cookies, requestConfig)
                    .fetch(settings.server().httpUri(web.csrfPath()));
            steps.add(fetched.step());
            csrf = fetched.ok() ? fetched : null;
        }
        return steps;
    }

    private static boolean add(List<ConnectStepResult> steps, ConnectStepResult step) {
        steps.add(step);
        return step.ok();
    }

    /** Adds the CSRF token the last login fetched, if any, to a CONNECT frame's headers. */
    void addCsrfTo(StompHeaders connectHeaders) {
        CsrfFetch.Result token = csrf;
        if (token != null) {
            token.addTo(connectHeaders);
        }
    }

    /** GETs the URI; a status other than 2xx fails the step with that status as its code. */
    ConnectStepResult get(String label, URI uri) {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        HttpGet get = new HttpGet(uri);
        get.setConfig(requestConfig);
        HttpClientContext context = HttpClientContext.create();
        context.setCookieStore(cookies);
        try (CloseableHttpResponse response = client.execute(get, context)) {
            int status = response.getStatusLine().getStatusCode();
            HttpEntity entity = response.getEntity();
            byte[] body = entity == null ? new byte[0] : EntityUtils.toByteArray(entity);
            String text = new String(body, StandardCharsets.UTF_8);
            if (text.length() > MAX_BODY_CHARS) {
                text = text.substring(0, MAX_BODY_CHARS);
            }
            if (status / 100 != 2) {
                return new ConnectStepResult(
                        label,
                        false,
                        Integer.toString(status),
                        "GET " + uri + " answered " + response.getStatusLine(),
                        startMillis,
                        System.nanoTime() - startNanos,
                        body.length,
                        text);
            }
            return ConnectStepResult.success(
                    label,
                    Integer.toString(status),
                    response.getStatusLine().toString(),
                    startMillis,
                    startNanos,
                    body.length,
                    text);
        } catch (IOException | RuntimeException e) {
            Failure failure = Failure.of(e);
            return ConnectStepResult.failure(
                    label, failure.code(), "GET " + uri + ": " + failure.message(), startMillis, startNanos);
        }
    }

    /** The Cookie header value the user's store holds for this URI (RFC 6265 matching), or "" if none. */
    String cookieHeader(URI uri) {
        List<Cookie> all = cookies.getCookies();
        if (all.isEmpty()) {
            // a user with no login steps has none: every connect of the connect test asks
            return "";
        }
        CookieOrigin origin = origin(uri);
        Date now = new Date();
        List<Cookie> matching = new ArrayList<>();
        for (Cookie cookie : all) {
            if (!cookie.isExpired(now) && COOKIE_SPEC.match(cookie, origin)) {
                matching.add(cookie);
            }
        }
        if (matching.isEmpty()) {
            return "";
        }
        List<Header> headers = COOKIE_SPEC.formatCookies(matching);
        return headers.isEmpty() ? "" : headers.get(0).getValue();
    }

    /** Stores cookies a response to {@code uri} set outside the login steps (SockJS's /info, say). */
    void addSetCookies(URI uri, List<String> setCookieHeaders) {
        CookieOrigin origin = origin(uri);
        for (String header : setCookieHeaders) {
            try {
                for (Cookie cookie : COOKIE_SPEC.parse(new BasicHeader("Set-Cookie", header), origin)) {
                    cookies.addCookie(cookie);
                }
            } catch (MalformedCookieException e) {
                // As a browser does: a cookie it cannot parse is ignored.
            }
        }
    }

    private static CookieOrigin origin(URI uri) {
        String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
        boolean secure = "https".equals(uri.getScheme()) || "wss".equals(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : (secure ? 443 : 80);
        return new CookieOrigin(uri.getHost(), port, path, secure);
    }

    void clearCookies() {
        cookies.clear();
    }
}
