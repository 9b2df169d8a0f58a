package io.github.sockjsstomp.client.login;

import org.springframework.http.HttpHeaders;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A bearer token a virtual user presents as {@code Authorization: Bearer <token>}: on the WebSocket handshake
 * (and so on SockJS's HTTP requests, which carry the handshake headers), and, for apps whose channel
 * interceptor reads it there, on STOMP CONNECT.
 */
public record BearerToken(String token) {

    public static final String HEADER = "Authorization";
    private static final String PREFIX = "Bearer ";

    /** @param token the token, with or without a leading "Bearer " */
    public BearerToken {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("token is required");
        }
        token = token.strip();
        if (token.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            token = token.substring(PREFIX.length()).strip();
        }
        boolean onlyPrefix = token.equalsIgnoreCase(PREFIX.strip());
        if (token.isEmpty() || onlyPrefix || token.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("a bearer token has no spaces: '" + abbreviated(token) + "'");
        }
    }

    public String headerValue() {
        return PREFIX + token;
    }

    /** Sets the header on the handshake's headers (WebSocketHttpHeaders is an HttpHeaders). */
    public void addTo(HttpHeaders handshakeHeaders) {
        handshakeHeaders.set(HEADER, headerValue());
    }

    /** Sets the header on CONNECT's headers. */
    public void addTo(StompHeaders connectHeaders) {
        connectHeaders.set(HEADER, headerValue());
    }

    @Override
    public String toString() {
        // Never the whole token: it ends up in log lines.
        return "BearerToken[" + abbreviated(token) + "]";
    }

    private static String abbreviated(String token) {
        return token.length() <= 4 ? "..." : token.substring(0, 4) + "...";
    }
}
