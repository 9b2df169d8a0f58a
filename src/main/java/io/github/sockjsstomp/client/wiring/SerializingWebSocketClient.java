package io.github.sockjsstomp.client.wiring;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.WebSocketClient;
import org.springframework.web.socket.handler.WebSocketHandlerDecorator;
import org.springframework.web.socket.sockjs.client.SockJsClient;

/**
 * Hands every session to its handler wrapped in a {@link SerializedSession} (one writer at a time, each
 * learning the fate of its own message) and, over SockJS, in a {@link TextOnlySession}; tells the connecting user's
 * {@link TransportListener} (found through {@link ConnectWatch}: the connect runs on the user's thread) of its
 * transport session.
 */
record SerializingWebSocketClient(WebSocketClient delegate, int sendTimeLimitMillis) implements WebSocketClient {

    @Override
    public CompletableFuture<WebSocketSession> execute(
            WebSocketHandler handler, String uriTemplate, Object... uriVariables) {
        throw new UnsupportedOperationException("Use execute(handler, headers, uri)");
    }

    @Override
    public CompletableFuture<WebSocketSession> execute(
            WebSocketHandler handler, WebSocketHttpHeaders headers, URI uri) {
        return delegate.execute(new SerializingHandler(handler, ConnectWatch.transportListener()), headers, uri);
    }

    @Override
    public String toString() {
        return "SerializingWebSocketClient[" + delegate.getClass().getSimpleName() + "]";
    }

    private final class SerializingHandler extends WebSocketHandlerDecorator {

        private final TransportListener listener;
        private volatile WebSocketSession serialized;

        SerializingHandler(WebSocketHandler delegate, TransportListener listener) {
            super(delegate);
            this.listener = listener;
        }

        private WebSocketSession serialized(WebSocketSession session) {
            WebSocketSession current = serialized;
            if (current == null) {
                current = new SerializedSession(session, sendTimeLimitMillis);
                if (SerializingWebSocketClient.this.delegate instanceof SockJsClient) {
                    current = new TextOnlySession(current);
                }
                if (listener != null) {
                    current = listener.outgoing(current);
                }
                serialized = current;
            }
            return current;
        }

        /**
         * STOMP over a plain WebSocket is decoded incrementally (Spring's BufferingStompDecoder), so frames may
         * arrive in pieces and the session's buffers stay small; SockJS needs whole frames.
         */
        @Override
        public boolean supportsPartialMessages() {
            return !(SerializingWebSocketClient.this.delegate instanceof SockJsClient);
        }

        @Override
        public void afterConnectionEstablished(WebSocketSession session) throws Exception {
            if (listener != null) {
                listener.established(session);
            }
            super.afterConnectionEstablished(serialized(session));
        }

        @Override
        public void handleMessage(WebSocketSession session, WebSocketMessage<?> message) throws Exception {
            super.handleMessage(serialized(session), message);
        }

        @Override
        public void handleTransportError(WebSocketSession session, Throwable exception) throws Exception {
            super.handleTransportError(serialized(session), exception);
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus closeStatus) throws Exception {
            if (listener != null) {
                listener.closed(closeStatus);
            }
            super.afterConnectionClosed(serialized(session), closeStatus);
        }
    }
}
