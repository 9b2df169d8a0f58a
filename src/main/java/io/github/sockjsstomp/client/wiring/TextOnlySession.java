package io.github.sockjsstomp.client.wiring;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.WebSocketSessionDecorator;

/**
 * SockJS carries text only. Spring's STOMP client writes a SEND whose content-type is
 * application/octet-stream as a binary WebSocket message unless the session is a server-side SockJS session,
 * and the client-side SockJS session refuses binary messages: every binary SEND over SockJS failed. Here a
 * STOMP frame goes out as a text message instead; its body must then be valid UTF-8, as over any SockJS
 * transport.
 */
final class TextOnlySession extends WebSocketSessionDecorator {

    TextOnlySession(WebSocketSession delegate) {
        super(delegate);
    }

    @Override
    public void sendMessage(WebSocketMessage<?> message) throws IOException {
        if (message instanceof BinaryMessage binary) {
            ByteBuffer payload = binary.getPayload().duplicate();
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            super.sendMessage(new TextMessage(new String(bytes, StandardCharsets.UTF_8), binary.isLast()));
            return;
        }
        super.sendMessage(message);
    }
}
