package io.github.sockjsstomp.client.login;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.http.Header;
import org.apache.http.HttpEntity;
import org.apache.http.client.CookieStore;
import org.apache.http.client.config.CookieSpecs;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.client.BasicCookieStore;
import org.apache.http.impl.client.CloseableHttpClient;

/**
 * One HTTP request of a virtual user through its own cookie store (or a throwaway one: the shared client's
 * default store must stay empty, or users would share cookies), with the answer's body read whole up to
 * {@link #MAX_BODY_BYTES}. Public for the transport probe ({@code client.wiring.TransportProbe}), whose one GET of
 * SockJS's {@code /info} is made the same way.
 */
public final class HttpExchange {

    /** Login pages and CSRF endpoints are small; a page larger than this is cut, not an error. */
    static final int MAX_BODY_BYTES = 1 << 20;
    /** Bodies kept in a step for View Results Tree, as HttpLogin keeps them. */
    static final int STEP_BODY_CHARS = 4096;

    public record Response(
            URI uri, int status, String statusLine, String location, String contentType, String body, long bytes) {

        boolean isRedirect() {
            return status / 100 == 3;
        }

        /** The body as a step keeps it. */
        String stepBody() {
            return body.length() > STEP_BODY_CHARS ? body.substring(0, STEP_BODY_CHARS) : body;
        }
    }

    private HttpExchange() {}

    /** The caller's settings, with the cookie spec HttpLogin uses and redirects followed or not. */
    public static RequestConfig config(RequestConfig base, boolean followRedirects) {
        RequestConfig.Builder builder = RequestConfig.copy(base).setRedirectsEnabled(followRedirects);
        if (base.getCookieSpec() == null) {
            builder.setCookieSpec(CookieSpecs.STANDARD);
        }
        return builder.build();
    }

    public static RequestConfig timeouts(int timeoutMillis) {
        return RequestConfig.custom()
                .setConnectTimeout(timeoutMillis)
                .setConnectionRequestTimeout(timeoutMillis)
                .setSocketTimeout(timeoutMillis)
                .build();
    }

    /** Executes the request; {@code cookies} null sends only the headers the request has. */
    public static Response execute(
            CloseableHttpClient client, HttpRequestBase request, RequestConfig config, CookieStore cookies)
            throws IOException {
        request.setConfig(config);
        HttpClientContext context = HttpClientContext.create();
        context.setCookieStore(cookies == null ? new BasicCookieStore() : cookies);
        try (CloseableHttpResponse response = client.execute(request, context)) {
            HttpEntity entity = response.getEntity();
            byte[] body = new byte[0];
            long bytes = 0;
            String contentType = "";
            Charset charset = StandardCharsets.UTF_8;
            if (entity != null) {
                try (InputStream in = entity.getContent()) {
                    body = in.readNBytes(MAX_BODY_BYTES);
                    // Not drained: closing the response drops the connection of a body this large.
                    bytes = body.length;
                }
                ContentType type = ContentType.get(entity);
                if (type != null) {
                    contentType = type.getMimeType();
                    charset = type.getCharset() == null ? charset : type.getCharset();
                }
            }
            Header location = response.getFirstHeader("Location");
            List<URI> redirects = context.getRedirectLocations();
            URI uri = redirects == null || redirects.isEmpty() ? request.getURI() : redirects.get(redirects.size() - 1);
            int status = response.getStatusLine().getStatusCode();
            String reason = response.getStatusLine().getReasonPhrase();
            // "404 Not Found", or "404": Tomcat sends no reason phrase.
            String statusLine = reason == null || reason.isBlank() ? Integer.toString(status) : status + " " + reason;
            return new Response(
                    uri,
                    status,
                    statusLine,
                    location == null ? null : location.getValue(),
                    contentType,
                    new String(body, charset),
                    bytes);
        }
    }
}
