package io.github.sockjsstomp.demo;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.lang.Nullable;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;

/**
 * Refuses a handshake (HTTP 403, empty body) unless the request carries a valid {@code DEMOSESSION} cookie.
 *
 * <p>On a SockJS endpoint Spring applies handshake interceptors when a SockJS session is created, i.e. to
 * {@code /ws/{server}/{session}/websocket}, {@code .../xhr_streaming}, {@code .../xhr} (first poll) and to
 * the raw {@code /ws/websocket} URL; {@code /ws/info} and later {@code xhr_send} requests are not checked.
 */
final class DemoCookieHandshakeInterceptor implements HandshakeInterceptor {

    static final String TOKEN_ATTRIBUTE = "demo.httpSession";

    private final DemoHttpSessions httpSessions;

    DemoCookieHandshakeInterceptor(DemoHttpSessions httpSessions) {
        this.httpSessions = httpSessions;
    }

    @Override
    public boolean beforeHandshake(
            ServerHttpRequest request,
            ServerHttpResponse response,
            WebSocketHandler wsHandler,
            Map<String, Object> attributes) {
        String token = this.httpSessions.validToken(request);
        if (token == null) {
            response.setStatusCode(HttpStatus.FORBIDDEN);
            return false;
        }
        attributes.put(TOKEN_ATTRIBUTE, token);
        this.httpSessions.handshakeWith(token);
        return true;
    }

    @Override
    public void afterHandshake(
            ServerHttpRequest request,
            ServerHttpResponse response,
            WebSocketHandler wsHandler,
            @Nullable Exception exception) {}
}
