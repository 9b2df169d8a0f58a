package io.github.sockjsstomp.demo;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plays a load balancer that pins a client to a node with a cookie set on the SockJS {@code /info} response
 * ({@value #COOKIE}), as AWS ALB's AWSALB or nginx's sticky cookies do, and counts the SockJS session requests
 * (handshakes, XHR streams and polls) that carry it back: those that do not would land on any node.
 */
final class DemoStickyCookieFilter extends HttpFilter {

    static final String COOKIE = "DEMOSTICKY";
    static final AtomicLong STICKY_REQUESTS = new AtomicLong();
    static final AtomicLong UNSTICKY_REQUESTS = new AtomicLong();
    static final AtomicLong INFO_REQUESTS = new AtomicLong();

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI();
        if (path.endsWith("/info")) {
            INFO_REQUESTS.incrementAndGet();
            Cookie sticky = new Cookie(COOKIE, "node-1");
            sticky.setPath("/");
            response.addCookie(sticky);
        } else if (path.endsWith("/websocket") || path.endsWith("/xhr_streaming") || path.endsWith("/xhr")) {
            boolean pinned = request.getCookies() != null
                    && Arrays.stream(request.getCookies())
                            .anyMatch(c -> c.getName().equals(COOKIE));
            (pinned ? STICKY_REQUESTS : UNSTICKY_REQUESTS).incrementAndGet();
        }
        chain.doFilter(request, response);
    }
}
