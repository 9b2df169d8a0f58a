package io.github.sockjsstomp.client.wiring;

import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * What a connect started on this thread hears before its STOMP session exists: the transport session it opens
 * and the cookies SockJS's responses set. Spring's STOMP and SockJS clients open the transport and ask
 * {@code /info} on the caller's thread, so the shared clients find the connecting user through that thread.
 */
public final class ConnectWatch {

    private ConnectWatch() {}

    /**
     * Runs {@code connect} on this thread: the transport session it opens goes to {@code transport}, cookies that
     * SockJS responses set go to {@code setCookies} (the response's URI, its Set-Cookie headers).
     */
    public static <T> T during(
            TransportListener transport, BiConsumer<URI, List<String>> setCookies, Supplier<T> connect) {
        return SockJsCookies.during(
                setCookies, () -> SerializingWebSocketClient.withTransportListener(transport, connect));
    }
}
