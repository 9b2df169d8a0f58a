package io.github.sockjsstomp.demo;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.lang.Nullable;

/**
 * The demo's "HTTP login": {@code GET /index} issues a random {@value #COOKIE_NAME} token per call (one token per
 * virtual user), and {@code /clientPull} and the SockJS handshake accept only tokens issued here.
 *
 * <p>Tokens are kept in memory, oldest evicted first beyond {@link #DEFAULT_MAX_TOKENS} (system property
 * {@code demo.maxHttpSessions}), so a long load test that calls {@code /index} once per iteration cannot exhaust
 * the heap.
 */
final class DemoHttpSessions {

    static final String COOKIE_NAME = "DEMOSESSION";

    static final int DEFAULT_MAX_TOKENS = 200_000;

    private final SecureRandom random = new SecureRandom();

    private final Set<String> tokens = ConcurrentHashMap.newKeySet();

    private final Queue<String> order = new ConcurrentLinkedQueue<>();

    /** Per token held, the handshakes that carried it: what tests see of whose cookies a client sends. */
    private final Map<String, AtomicInteger> handshakes = new ConcurrentHashMap<>();

    private final AtomicLong issued = new AtomicLong();

    private final int maxTokens;

    DemoHttpSessions() {
        this(Integer.getInteger("demo.maxHttpSessions", DEFAULT_MAX_TOKENS));
    }

    DemoHttpSessions(int maxTokens) {
        this.maxTokens = Math.max(1, maxTokens);
    }

    /** Creates and registers a new token. */
    String newToken() {
        byte[] bytes = new byte[18];
        this.random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        this.tokens.add(token);
        this.order.add(token);
        this.issued.incrementAndGet();
        while (this.tokens.size() > this.maxTokens) {
            String oldest = this.order.poll();
            if (oldest == null) {
                break;
            }
            this.tokens.remove(oldest);
            this.handshakes.remove(oldest);
        }
        return token;
    }

    boolean isValid(@Nullable String token) {
        return token != null && this.tokens.contains(token);
    }

    /** The tokens held now (the secrets a client must never write anywhere). */
    Set<String> tokens() {
        return Set.copyOf(this.tokens);
    }

    /** A handshake came with {@code token}, a valid one. */
    void handshakeWith(String token) {
        this.handshakes.computeIfAbsent(token, t -> new AtomicInteger()).incrementAndGet();
    }

    /** Per token held, how many handshakes carried it so far. */
    Map<String, Integer> handshakesPerToken() {
        Map<String, Integer> counts = new HashMap<>();
        this.handshakes.forEach((token, count) -> counts.put(token, count.get()));
        return counts;
    }

    long issuedCount() {
        return this.issued.get();
    }

    int activeCount() {
        return this.tokens.size();
    }

    /** The valid {@value #COOKIE_NAME} token of a servlet request, or null. */
    @Nullable
    String validToken(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (COOKIE_NAME.equals(cookie.getName()) && isValid(cookie.getValue())) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }

    /** The valid {@value #COOKIE_NAME} token of a (SockJS / WebSocket handshake) request, or null. */
    @Nullable
    String validToken(ServerHttpRequest request) {
        if (request instanceof ServletServerHttpRequest servletRequest) {
            return validToken(servletRequest.getServletRequest());
        }
        for (String header : request.getHeaders().getOrEmpty(HttpHeaders.COOKIE)) {
            for (String pair : header.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && COOKIE_NAME.equals(pair.substring(0, eq).trim())) {
                    String value = pair.substring(eq + 1).trim();
                    if (isValid(value)) {
                        return value;
                    }
                }
            }
        }
        return null;
    }
}
