package io.github.sockjsstomp.client.wiring;

import io.github.sockjsstomp.client.deflate.DeflateOffer;
import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Who is connecting on this thread, for what the shared clients hear before a STOMP session exists: the transport
 * session a connect opens ({@link SerializingWebSocketClient}), the cookies SockJS's responses set
 * ({@link SockJsCookies}) and the extension it offers on the WebSocket upgrade alone ({@link OfferingWebSocketClient}:
 * SockJS copies the handshake headers onto its HTTP requests too, where a browser sends no such offer). Spring's STOMP and SockJS clients open the transport and ask {@code /info} on the
 * caller's thread, so that thread says whose they are.
 */
public final class ConnectWatch {

    private static final ThreadLocal<ConnectWatch> CURRENT = new ThreadLocal<>();

    private final TransportListener transport;
    private final BiConsumer<URI, List<String>> setCookies;
    private final DeflateOffer offer;

    private ConnectWatch(TransportListener transport, BiConsumer<URI, List<String>> setCookies, DeflateOffer offer) {
        this.transport = transport;
        this.setCookies = setCookies;
        this.offer = offer;
    }

    /**
     * Runs {@code connect} on this thread: the transport session it opens goes to {@code transport}, cookies that
     * SockJS responses set go to {@code setCookies} (the response's URI, its Set-Cookie headers), and a WebSocket
     * upgrade offers {@code offer}.
     */
    public static <T> T during(
            TransportListener transport,
            BiConsumer<URI, List<String>> setCookies,
            DeflateOffer offer,
            Supplier<T> connect) {
        CURRENT.set(new ConnectWatch(transport, setCookies, offer));
        try {
            return connect.get();
        } finally {
            CURRENT.remove();
        }
    }

    /** The transport listener of the connect under way on this thread; null if none. */
    static TransportListener transportListener() {
        ConnectWatch watch = CURRENT.get();
        return watch == null ? null : watch.transport;
    }

    /** What the connect under way on this thread offers; nothing when none is (the warm-up, the probe). */
    static DeflateOffer offer() {
        ConnectWatch watch = CURRENT.get();
        return watch == null ? DeflateOffer.OFF : watch.offer;
    }

    /** Where cookies set on this thread go; null if no connect is under way on it. */
    static BiConsumer<URI, List<String>> cookieReceiver() {
        ConnectWatch watch = CURRENT.get();
        return watch == null ? null : watch.setCookies;
    }
}
