package io.github.sockjsstomp.client.user;

import java.io.IOException;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.WebSocketSessionDecorator;

/**
 * The session STOMP writes to, for a user that may go silent: once {@link #silence silenced}, every write
 * (SEND, DISCONNECT, Spring's heart-beat) and every close goes nowhere, as from a client that lost power with
 * its TCP connection still up. Spring's STOMP session schedules its heart-beat writes in a private adapter of
 * WebSocketStompClient and offers no way to stop them for one session short of closing it; here they keep
 * running and are dropped. Its read-inactivity check closes the session when the server's heart-beats stop:
 * that close is dropped too, so only the server ends a silent session. Reads go on: the server's close must
 * be seen to time it.
 */
final class SilencedSession extends WebSocketSessionDecorator {

    private volatile boolean silent;

    SilencedSession(WebSocketSession delegate) {
        super(delegate);
    }

    void silence() {
        silent = true;
    }

    @Override
    public void sendMessage(WebSocketMessage<?> message) throws IOException {
        if (!silent) {
            super.sendMessage(message);
        }
    }

    @Override
    public void close() throws IOException {
        close(CloseStatus.NORMAL);
    }

    @Override
    public void close(CloseStatus status) throws IOException {
        if (!silent) {
            super.close(status);
        }
    }
}
