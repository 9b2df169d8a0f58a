package io.github.sockjsstomp.client.wiring;

import io.github.sockjsstomp.client.deflate.DeflateOffer;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.WebSocketClient;

/**
 * Adds to a WebSocket upgrade the extension offer of the user connecting on this thread ({@link ConnectWatch}), as a
 * browser offers permessage-deflate on every WebSocket it opens. It wraps the WebSocket client itself, under SockJS's
 * transport, so that SockJS's own HTTP requests ({@code /info}, which get the handshake headers too) carry no offer.
 */
record OfferingWebSocketClient(WebSocketClient delegate) implements WebSocketClient {

    @Override
    public CompletableFuture<WebSocketSession> execute(
            WebSocketHandler handler, String uriTemplate, Object... uriVariables) {
        throw new UnsupportedOperationException("Use execute(handler, headers, uri)");
    }

    @Override
    public CompletableFuture<WebSocketSession> execute(
            WebSocketHandler handler, WebSocketHttpHeaders headers, URI uri) {
        DeflateOffer offer = ConnectWatch.offer();
        if (!offer.offers()) {
            return delegate.execute(handler, headers, uri);
        }
        WebSocketHttpHeaders offering = new WebSocketHttpHeaders();
        if (headers != null) {
            offering.putAll(headers);
        }
        // Spring turns this header into the extensions Tomcat offers (and Tomcat writes it as it parsed it)
        offering.set(WebSocketHttpHeaders.SEC_WEBSOCKET_EXTENSIONS, offer.header());
        return delegate.execute(handler, offering, uri);
    }

    @Override
    public String toString() {
        return "OfferingWebSocketClient[" + delegate + "]";
    }
}
