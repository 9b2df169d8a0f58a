package io.github.sockjsstomp.client;

import io.github.sockjsstomp.client.deflate.DeflateOffer;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * What one virtual user connects to and how it logs in: who it is, where it connects ({@link Server}), how it
 * logs in to the web app first ({@link WebLogin}: empty paths skip their step) and how its STOMP session is opened
 * ({@link ConnectOptions}). A thread's users share the last three, but for their bearer tokens.
 *
 * @param name the virtual user's name, unique in its run ({@code senders #17}): the timing log's
 *     {@code sender_user} and {@code receiver_user}, and {@code {{user}}}
 * @param threadNumber the JMeter thread number, for templates
 * @param number the virtual user's number in its thread group, from 1 ({@code {{userNumber}}}): with s users
 *     per thread, thread n's k-th user is (n - 1) * s + k
 * @param credentials the STOMP login and passcode
 */
public record UserSettings(
        String name,
        int threadNumber,
        int number,
        Credentials credentials,
        Server server,
        WebLogin web,
        ConnectOptions connect) {

    public UserSettings {
        Objects.requireNonNull(name, "name is required");
        Objects.requireNonNull(server, "server is required");
        Objects.requireNonNull(connect, "connect is required");
        credentials = credentials == null ? Credentials.NONE : credentials;
        web = web == null ? WebLogin.NONE : web;
    }

    /**
     * Where a user connects. A value, as a record is; its URLs are made once, since a thread's users share one
     * server and every connect and every held session (Tomcat keeps the URL it opened) would otherwise have its own.
     */
    public static final class Server {

        private final String scheme;
        private final String host;
        private final int port;
        private final String endpoint;
        private final Transport transport;
        private final URI endpointHttpUri;
        private final URI stompUri;

        /**
         * @param scheme http or https (and so ws or wss)
         * @param endpoint the STOMP endpoint's path
         * @param transport how: SockJS's transports, a raw WebSocket, or {@code auto} until a probe chose
         */
        public Server(String scheme, String host, int port, String endpoint, Transport transport) {
            Objects.requireNonNull(transport, "transport is required");
            if (!"http".equals(scheme) && !"https".equals(scheme)) {
                throw new IllegalArgumentException("scheme must be http or https, was '" + scheme + "'");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be 1..65535, was " + port);
            }
            this.scheme = scheme;
            this.host = host;
            this.port = port;
            this.endpoint = endpoint;
            this.transport = transport;
            this.endpointHttpUri = httpUri(endpoint);
            this.stompUri = transport.isSockJs() || transport == Transport.AUTO
                    ? endpointHttpUri
                    : URI.create(
                            ("https".equals(scheme) ? "wss" : "ws") + "://" + host + ":" + port + withSlash(endpoint));
        }

        public String scheme() {
            return scheme;
        }

        public String host() {
            return host;
        }

        public int port() {
            return port;
        }

        public String endpoint() {
            return endpoint;
        }

        public Transport transport() {
            return transport;
        }

        /** The same server over another transport: what {@code auto} found. */
        public Server withTransport(Transport chosen) {
            return new Server(scheme, host, port, endpoint, chosen);
        }

        public URI httpUri(String path) {
            return URI.create(scheme + "://" + host + ":" + port + withSlash(path));
        }

        /** The endpoint as an http(s) URL, whatever the transport: where SockJS's /info is asked. */
        public URI endpointHttpUri() {
            return endpointHttpUri;
        }

        /** The URL given to the STOMP client: http(s) for SockJS (and auto, before it chose), ws(s) for raw. */
        public URI stompUri() {
            return stompUri;
        }

        /**
         * The origin of a page this server serves ({@code http://host:port}, the port left out where it is the
         * scheme's own), which is what a browser sends as {@code Origin} from such a page.
         */
        public String origin() {
            boolean defaultPort = port == ("https".equals(scheme) ? 443 : 80);
            return scheme + "://" + host + (defaultPort ? "" : ":" + port);
        }

        /** https, and so wss. */
        public boolean secure() {
            return "https".equals(scheme);
        }

        private static String withSlash(String path) {
            return path.startsWith("/") ? path : "/" + path;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Server that
                    && port == that.port
                    && scheme.equals(that.scheme)
                    && Objects.equals(host, that.host)
                    && Objects.equals(endpoint, that.endpoint)
                    && transport == that.transport;
        }

        @Override
        public int hashCode() {
            return Objects.hash(scheme, host, port, endpoint, transport);
        }

        @Override
        public String toString() {
            return "Server[scheme=" + scheme + ", host=" + host + ", port=" + port + ", endpoint=" + endpoint
                    + ", transport=" + transport + "]";
        }
    }

    /**
     * The STOMP login and passcode of the CONNECT frame (and of a form login), one user's: given, made from a
     * template, or a users file's line; empty sends none.
     */
    public record Credentials(String login, String passcode) {

        public static final Credentials NONE = new Credentials("", "");

        public Credentials {
            login = login == null ? "" : login;
            passcode = passcode == null ? "" : passcode;
        }

        @Override
        public String toString() {
            // Never the passcode: settings end up in log lines.
            return "Credentials[" + login + ", passcode hidden]";
        }
    }

    /**
     * How a user's STOMP session is opened.
     *
     * @param headers extra STOMP CONNECT headers, in order
     * @param heartbeatMillis STOMP heart-beat in both directions; 0 disables it
     * @param timeoutMillis how long a connect (and each login step) may take
     * @param compression what the WebSocket upgrade offers ({@code Sec-WebSocket-Extensions})
     * @param handshakeHeaders the HTTP headers of the handshake (the upgrade and SockJS's requests) beyond those the
     *     protocols and the login set, per user
     */
    public record ConnectOptions(
            Map<String, String> headers,
            long heartbeatMillis,
            long timeoutMillis,
            DeflateOffer compression,
            HandshakeHeaders handshakeHeaders) {

        public ConnectOptions {
            Objects.requireNonNull(headers, "headers is required");
            Objects.requireNonNull(compression, "compression is required");
            Objects.requireNonNull(handshakeHeaders, "handshakeHeaders is required");
            headers = Map.copyOf(headers);
        }

        /** No offer and no extra handshake headers: a bare client (the warm-up's, the tests' of one class). */
        public ConnectOptions(Map<String, String> headers, long heartbeatMillis, long timeoutMillis) {
            this(headers, heartbeatMillis, timeoutMillis, DeflateOffer.OFF, HandshakeHeaders.NONE);
        }
    }

    /**
     * A user's handshake headers (Origin, User-Agent, what the plan adds), in the order they go: made by the plan's
     * {@code handshakeHeaders}, which may name the user in their values.
     */
    @FunctionalInterface
    public interface HandshakeHeaders {

        HandshakeHeaders NONE = user -> Map.of();

        Map<String, String> of(UserSettings user);
    }

    @Override
    public String toString() {
        // Never the passcode: settings end up in log lines.
        return "UserSettings[" + name + ", user " + number + ", " + server.transport() + " " + server.stompUri() + "]";
    }

    /** The same user over another transport: what {@code auto} found. */
    public UserSettings withTransport(Transport chosen) {
        return new UserSettings(name, threadNumber, number, credentials, server.withTransport(chosen), web, connect);
    }

    /** Who sent and received in the timing log's sender and receiver: the login, else the user's name. */
    public String loginOrName() {
        return credentials.login().isEmpty() ? name : credentials.login();
    }

    /** The CONNECT frame's headers: login, passcode, the extra ones in order, and the heart-beat both ways. */
    public StompHeaders connectFrameHeaders() {
        var headers = new StompHeaders();
        if (!credentials.login().isEmpty()) {
            headers.setLogin(credentials.login());
        }
        if (!credentials.passcode().isEmpty()) {
            headers.setPasscode(credentials.passcode());
        }
        connect.headers().forEach(headers::add);
        headers.setHeartbeat(new long[] {connect.heartbeatMillis(), connect.heartbeatMillis()});
        return headers;
    }
}
