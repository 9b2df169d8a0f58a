package io.github.sockjsstomp.client.wiring;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.Json;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.login.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;

/**
 * Transport {@code auto}: asks the endpoint's SockJS {@code /info} (one GET, redirects not followed, bounded
 * by the timeout) whether it speaks SockJS. SockJS's JSON means SockJS's websocket transport (xhr-streaming
 * when it says {@code "websocket":false}); a 404 means no SockJS there, so a plain WebSocket; anything else is
 * a failure that says what was asked, what answered and what to try. Answers come back as values, never as
 * exceptions. Successful answers are kept per endpoint for the life of this object (one probe per endpoint
 * per run when the caller keeps one instance for the run); failures are not, as a login may change them.
 */
public final class TransportProbe {

    /**
     * A probe's answer.
     *
     * @param transport the transport to use, or null when the probe failed
     * @param code the HTTP status, or a {@link Failure} code when no answer came
     */
    public record Result(Transport transport, String infoUrl, String code, String message) {

        public boolean ok() {
            return transport != null;
        }
    }

    private final CloseableHttpClient client;
    private final RequestConfig requestConfig;

    private final Map<URI, Result> found = new ConcurrentHashMap<>();

    /** @param timeoutMillis connect, pool and read timeout of the one request */
    public TransportProbe(CloseableHttpClient client, int timeoutMillis) {
        if (client == null) {
            throw new IllegalArgumentException("client is required");
        }
        this.client = client;
        this.requestConfig = HttpExchange.config(HttpExchange.timeouts(timeoutMillis), false);
    }

    /** The transport for this endpoint: a kept answer, or a new probe (kept when it succeeds). */
    public Result transportFor(URI endpoint, String cookieHeader) {
        URI key = httpUri(endpoint);
        Result known = found.get(key);
        if (known != null) {
            return known;
        }
        Result result = probe(endpoint, cookieHeader);
        if (result.ok()) {
            found.putIfAbsent(key, result);
        }
        return result;
    }

    /** The kept answer for this endpoint, without asking: empty until a probe of it succeeded. */
    public Optional<Transport> known(URI endpoint) {
        Result known = found.get(httpUri(endpoint));
        return known == null ? Optional.empty() : Optional.of(known.transport());
    }

    /**
     * Asks {@code <endpoint>/info} now.
     *
     * @param endpoint the STOMP endpoint, http(s) or ws(s)
     * @param cookieHeader the user's Cookie header for the endpoint, or "" (a login-protected /info needs it)
     */
    public Result probe(URI endpoint, String cookieHeader) {
        URI info = infoUri(endpoint);
        HttpGet get = new HttpGet(info);
        if (cookieHeader != null && !cookieHeader.isEmpty()) {
            get.setHeader("Cookie", cookieHeader);
        }
        try {
            HttpExchange.Response response = HttpExchange.execute(client, get, requestConfig, null);
            return classify(
                    endpoint,
                    response.status(),
                    response.statusLine(),
                    response.location(),
                    response.contentType(),
                    response.body());
        } catch (IOException | RuntimeException e) {
            Failure failure = Failure.of(e);
            return new Result(
                    null,
                    info.toString(),
                    failure.code(),
                    "GET " + info + " failed: " + failure.message()
                            + ". Is the server up at " + info.getHost() + ":" + info.getPort()
                            + "? Check host, port and scheme; -Jtransport=raw or websocket skips this probe.");
        }
    }

    /**
     * Why a plain WebSocket handshake on {@code rawEndpoint} was refused, when the reason is that it is a SockJS
     * endpoint: a message naming {@code <endpoint>/websocket}, SockJS's own plain WebSocket URL. Empty when
     * {@code /info} is not SockJS's (or cannot be asked): the refusal had another cause.
     */
    public Optional<String> rawOnSockJsHint(URI rawEndpoint, String cookieHeader) {
        Result result = transportFor(rawEndpoint, cookieHeader);
        if (!result.ok() || !result.transport().isSockJs()) {
            return Optional.empty();
        }
        URI ws = webSocketUri(rawEndpoint);
        return Optional.of(ws + " is a SockJS endpoint (GET " + result.infoUrl() + " answered SockJS's JSON), "
                + "so a plain WebSocket handshake there is refused. Use -Jtransport=websocket (or auto) with this "
                + "endpoint, or keep -Jtransport=raw with -Jendpoint=" + trimmedPath(ws) + "/websocket ("
                + trimmed(ws) + "/websocket, SockJS's plain WebSocket URL).");
    }

    /** Whether a failed raw connect's code is an HTTP status, the kind of refusal {@link #rawOnSockJsHint} explains. */
    public static boolean isRefusedHandshake(String failureCode) {
        return failureCode != null && failureCode.matches("[1-5]\\d\\d");
    }

    Result classify(URI endpoint, int status, String statusLine, String location, String contentType, String body) {
        String info = infoUri(endpoint).toString();
        String asked = "GET " + info + " answered " + statusLine;
        String code = Integer.toString(status);
        if (status == 200) {
            Boolean webSocket = sockJsWebSocket(body);
            if (webSocket == null) {
                return new Result(
                        null,
                        info,
                        code,
                        asked + " with " + describe(contentType)
                                + ", not SockJS's JSON ({\"websocket\":true,...}). If the endpoint is a plain WebSocket, "
                                + "set -Jtransport=raw; otherwise check -Jendpoint.");
            }
            return webSocket
                    ? new Result(Transport.WEBSOCKET, info, code, asked + ": SockJS, transport websocket")
                    : new Result(
                            Transport.XHR_STREAMING,
                            info,
                            code,
                            asked + ": SockJS without WebSocket " + "({\"websocket\":false}), transport xhr-streaming");
        }
        if (status == 404) {
            return new Result(
                    Transport.RAW,
                    info,
                    code,
                    asked + ": no SockJS there, transport raw (a plain " + "WebSocket on " + webSocketUri(endpoint)
                            + ")");
        }
        if (status == 401
                || status == 403
                || (status / 100 == 3
                        && location != null
                        && location.toLowerCase(Locale.ROOT).contains("login"))) {
            return new Result(
                    null,
                    info,
                    code,
                    asked + (location == null ? "" : " redirecting to " + location)
                            + ": the endpoint needs a logged-in user. Add login steps before the connect (a form login, "
                            + "a bearer token), or set -Jtransport=raw or websocket to skip this probe.");
        }
        if (status / 100 == 3) {
            return new Result(
                    null,
                    info,
                    code,
                    asked + " redirecting to " + location + ": set -Jendpoint to where "
                            + "the endpoint really is, or -Jtransport=raw or websocket to skip this probe.");
        }
        return new Result(
                null,
                info,
                code,
                asked + ": set -Jtransport=raw (a plain WebSocket endpoint) or "
                        + "websocket (SockJS) to skip this probe.");
    }

    /** SockJS's /info answer's {@code websocket} flag, or null if the body is not that answer. */
    private Boolean sockJsWebSocket(String body) {
        try {
            JsonNode json = Json.mapper().readTree(body);
            JsonNode webSocket = json == null ? null : json.get("websocket");
            return webSocket != null && webSocket.isBoolean() ? webSocket.booleanValue() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String describe(String contentType) {
        return contentType == null || contentType.isEmpty() ? "no content type" : contentType;
    }

    /** {@code <endpoint>/info} over http(s): SockJS answers its info request on the endpoint's own URL. */
    static URI infoUri(URI endpoint) {
        return URI.create(trimmed(httpUri(endpoint)) + "/info");
    }

    /** The endpoint over http(s), without query: how SockJS addresses it. */
    static URI httpUri(URI endpoint) {
        return withScheme(
                endpoint,
                "https".equals(endpoint.getScheme()) || "wss".equals(endpoint.getScheme()) ? "https" : "http");
    }

    /** The endpoint over ws(s): how a plain WebSocket addresses it. */
    static URI webSocketUri(URI endpoint) {
        return withScheme(
                endpoint, "https".equals(endpoint.getScheme()) || "wss".equals(endpoint.getScheme()) ? "wss" : "ws");
    }

    private static URI withScheme(URI endpoint, String scheme) {
        String port = endpoint.getPort() < 0 ? "" : ":" + endpoint.getPort();
        String path = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
        return URI.create(scheme + "://" + endpoint.getHost() + port + path);
    }

    private static String trimmed(URI uri) {
        String text = uri.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    private static String trimmedPath(URI uri) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
