package io.github.sockjsstomp.serverside;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.http.HttpEntity;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;

/**
 * The GETs of the HTTP sources, each bounded: connect, pool and read timeouts, a cap on the body, and a deadline
 * for the whole answer (a server that trickles its answer is cut off), so a server that hangs delays the next
 * poll by at most that, never the run. Apache HttpClient 4, which JMeter ships and the login steps use. Basic auth
 * comes from the URL's user:password, sent on the first request (the management API asks for it on every one).
 */
final class FigureHttp implements AutoCloseable {

    /** An actuator metric is a few hundred bytes, RabbitMQ's overview a few KB. */
    static final int MAX_BODY_BYTES = 1 << 20;

    record Answer(int status, String body) {}

    private final CloseableHttpClient client;
    private final int timeoutMillis;

    FigureHttp(int timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
        RequestConfig config = RequestConfig.custom()
                .setConnectTimeout(timeoutMillis)
                .setConnectionRequestTimeout(timeoutMillis)
                .setSocketTimeout(timeoutMillis)
                .setRedirectsEnabled(false)
                .build();
        this.client = HttpClients.custom()
                .setDefaultRequestConfig(config)
                .disableAutomaticRetries()
                .disableCookieManagement()
                .setMaxConnPerRoute(2)
                .setMaxConnTotal(8)
                .build();
    }

    /** GETs {@code url} (it may carry user:password); any status comes back, only I/O failures throw. */
    Answer get(String url) throws IOException {
        URI uri = URI.create(url);
        String userInfo = uri.getRawUserInfo();
        HttpGet get = new HttpGet(userInfo == null ? uri : withoutUserInfo(uri));
        get.setHeader("Accept", "application/json");
        if (userInfo != null) {
            String decoded = URLDecoder.decode(userInfo, StandardCharsets.UTF_8);
            get.setHeader(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(decoded.getBytes(StandardCharsets.UTF_8)));
        }
        long deadline = System.nanoTime() + 2L * timeoutMillis * 1_000_000L;
        try (CloseableHttpResponse response = client.execute(get)) {
            HttpEntity entity = response.getEntity();
            String body = entity == null ? "" : read(entity, deadline, get);
            return new Answer(response.getStatusLine().getStatusCode(), body);
        }
    }

    private String read(HttpEntity entity, long deadline, HttpGet get) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = entity.getContent()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                if (out.size() > MAX_BODY_BYTES) {
                    get.abort();
                    throw new IOException("answer larger than " + MAX_BODY_BYTES + " bytes");
                }
                if (System.nanoTime() > deadline) {
                    get.abort();
                    throw new IOException("answer not complete within " + 2 * timeoutMillis + " ms");
                }
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static URI withoutUserInfo(URI uri) {
        return URI.create(uri.getScheme() + "://"
                + uri.getRawAuthority().substring(uri.getRawUserInfo().length() + 1)
                + (uri.getRawPath() == null ? "" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
