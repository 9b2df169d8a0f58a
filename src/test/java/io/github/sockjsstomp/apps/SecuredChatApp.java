package io.github.sockjsstomp.apps;

import java.util.Map;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * A chat app behind Spring Security as users build one, test code only; binds 127.0.0.1 on a random port.
 *
 * <ul>
 * <li>Form login: Spring Security's default page {@code GET /login} (a form with a hidden {@code _csrf} input),
 * {@code POST /login} with {@code username}, {@code password}, {@code _csrf}; success redirects to {@code /},
 * failure to {@code /login?error}. CSRF protection on.</li>
 * <li>Users (in memory): {@code alice/alice-pass}, {@code bob/bob-pass}, {@code user-1/pass-1} ..
 * {@code user-N/pass-N}. Bearer tokens: {@code token-<user>} for each of them, in an
 * {@code Authorization: Bearer} header (no OAuth server).</li>
 * <li>{@code GET /chat}: a page handing the CSRF token to JavaScript in {@code <meta name="_csrf">} and
 * {@code <meta name="_csrf_header">}; {@code GET /csrf}: Spring's CsrfToken as JSON.</li>
 * <li>STOMP endpoint {@link #ENDPOINT}, plain WebSocket or SockJS; {@code /app/echo} answers on
 * {@code /user/queue/echo} with {@code {"principal":"<user>","payload":"<what was sent>"}}. How the STOMP
 * session is authenticated: see {@link StompAuth}.</li>
 * </ul>
 */
public final class SecuredChatApp extends BootApp {

    public static final String ENDPOINT = "/chat-websocket";
    public static final int DEFAULT_RANGE_USERS = 100;

    /** How a STOMP session gets its user. */
    public enum StompAuth {
        /**
         * The handshake needs an authenticated request (the session cookie of a form login, or a bearer
         * header); CONNECT must carry the CSRF token ({@code X-CSRF-TOKEN}), as Spring Security's message
         * security has it by default.
         */
        HANDSHAKE_AND_CSRF,
        /** As above without the CSRF token on CONNECT (the app replaced the csrfChannelInterceptor). */
        HANDSHAKE,
        /**
         * The handshake is open to anyone (a browser cannot set headers on it); CONNECT must carry
         * {@code Authorization: Bearer <token>}, which a ChannelInterceptor reads; no CSRF token.
         */
        CONNECT_HEADER
    }

    private final boolean sockJs;
    private final StompAuth stompAuth;

    private SecuredChatApp(ConfigurableApplicationContext context, boolean sockJs, StompAuth stompAuth) {
        super(context);
        this.sockJs = sockJs;
        this.stompAuth = stompAuth;
    }

    /**
     * Starts the app.
     *
     * @param sockJs whether the endpoint is a SockJS one ({@code .withSockJS()}) or plain WebSocket
     * @param rangeUsers how many generated users {@code user-1..user-N} there are besides alice and bob
     */
    public static SecuredChatApp start(boolean sockJs, StompAuth stompAuth, int rangeUsers) {
        return new SecuredChatApp(
                BootApps.start(
                        ChatApplication.class,
                        "secured-chat-app",
                        Map.of(
                                "chat.sockjs", Boolean.toString(sockJs),
                                "chat.stomp-auth", stompAuth.name(),
                                "chat.csrf-on-connect", Boolean.toString(stompAuth == StompAuth.HANDSHAKE_AND_CSRF),
                                "chat.range-users", Integer.toString(rangeUsers))),
                sockJs,
                stompAuth);
    }

    public static SecuredChatApp start(boolean sockJs, StompAuth stompAuth) {
        return start(sockJs, stompAuth, DEFAULT_RANGE_USERS);
    }

    /** Plain WebSocket endpoint, handshake authenticated, CSRF token on CONNECT. */
    public static SecuredChatApp start() {
        return start(false, StompAuth.HANDSHAKE_AND_CSRF);
    }

    @Override
    public String toString() {
        return "SecuredChatApp[" + baseUrl() + ENDPOINT + ", sockjs=" + sockJs + ", " + stompAuth + "]";
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({SecuredChatSecurity.class, SecuredChatMessaging.class, SecuredChatPages.class})
    static class ChatApplication {}
}
