package io.github.sockjsstomp.client.wiring;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/**
 * What a user learns of its transport session beyond what Spring's STOMP session tells: STOMP's connect future
 * only completes on CONNECTED, and a user that gives up before (timeout, ERROR, Stop) needs the transport session
 * itself to close it. Given to {@link ConnectWatch#during}.
 */
public interface TransportListener {

    void established(WebSocketSession session);

    /** The session STOMP is to write to, given the one it would (a silent user's drops what STOMP writes). */
    default WebSocketSession outgoing(WebSocketSession session) {
        return session;
    }

    /** Before STOMP hears of it: Spring's STOMP session reports every close as "Connection closed". */
    void closed(CloseStatus status);
}
