package io.github.sockjsstomp.client;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * What one virtual user connects to and how it logs in. Empty paths skip their login step.
 *
 * @param name the virtual user's name, unique in its run ({@code senders #17}): the timing log's
 *     {@code sender_user} and {@code receiver_user}, and {@code {{user}}}
 * @param threadNumber the JMeter thread number, for templates
 * @param number the virtual user's number in its thread group, from 1 ({@code {{userNumber}}}): with s users
 *     per thread, thread n's k-th user is (n - 1) * s + k
 * @param login the STOMP login; empty sends none
 * @param connectHeaders extra STOMP CONNECT headers, in order
 * @param heartbeatMillis STOMP heart-beat in both directions; 0 disables it
 */
public record UserSettings(
        String name,
        int threadNumber,
        int number,
        String scheme,
        String host,
        int port,
        String endpoint,
        Transport transport,
        WebLogin web,
        String login,
        String passcode,
        Map<String, String> connectHeaders,
        long heartbeatMillis,
        long connectTimeoutMillis) {

    public UserSettings {
        Objects.requireNonNull(name, "name is required");
        Objects.requireNonNull(transport, "transport is required");
        Objects.requireNonNull(connectHeaders, "connectHeaders is required");
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("scheme must be http or https, was '" + scheme + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, was " + port);
        }
        web = web == null ? WebLogin.NONE : web;
        login = login == null ? "" : login;
        passcode = passcode == null ? "" : passcode;
        connectHeaders = Map.copyOf(connectHeaders);
    }

    @Override
    public String toString() {
        // Never the passcode: settings end up in log lines.
        return "UserSettings[" + name + ", user " + number + ", " + transport + " " + stompUri() + "]";
    }

    /** The same server and options for another virtual user of the same thread. */
    public UserSettings forUser(
            String userName, int userNumber, String userLogin, String userPasscode, String bearerToken) {
        return new UserSettings(
                userName,
                threadNumber,
                userNumber,
                scheme,
                host,
                port,
                endpoint,
                transport,
                web.withBearerToken(bearerToken),
                userLogin,
                userPasscode,
                connectHeaders,
                heartbeatMillis,
                connectTimeoutMillis);
    }

    /** The same user over another transport: what {@code auto} found. */
    public UserSettings withTransport(Transport chosen) {
        return new UserSettings(
                name,
                threadNumber,
                number,
                scheme,
                host,
                port,
                endpoint,
                chosen,
                web,
                login,
                passcode,
                connectHeaders,
                heartbeatMillis,
                connectTimeoutMillis);
    }

    /** The endpoint as an http(s) URL, whatever the transport: where SockJS's /info is asked. */
    public URI endpointHttpUri() {
        return httpUri(endpoint);
    }

    /** Who sent and received in the timing log's sender and receiver: the login, else the user's name. */
    public String loginOrName() {
        return login.isEmpty() ? name : login;
    }

    public URI httpUri(String path) {
        return URI.create(scheme + "://" + host + ":" + port + withSlash(path));
    }

    /** The URL given to the STOMP client: http(s) for SockJS (and auto, before it chose), ws(s) for raw. */
    public URI stompUri() {
        if (transport.isSockJs() || transport == Transport.AUTO) {
            return httpUri(endpoint);
        }
        return URI.create(("https".equals(scheme) ? "wss" : "ws") + "://" + host + ":" + port + withSlash(endpoint));
    }

    /** https, and so wss. */
    public boolean secure() {
        return "https".equals(scheme);
    }

    private static String withSlash(String path) {
        return path.startsWith("/") ? path : "/" + path;
    }

    /** The CONNECT frame's headers: login, passcode, the extra ones in order, and the heart-beat both ways. */
    public StompHeaders connectFrameHeaders() {
        var headers = new StompHeaders();
        if (!login.isEmpty()) {
            headers.setLogin(login);
        }
        if (!passcode.isEmpty()) {
            headers.setPasscode(passcode);
        }
        connectHeaders.forEach(headers::add);
        headers.setHeartbeat(new long[] {heartbeatMillis, heartbeatMillis});
        return headers;
    }
}
