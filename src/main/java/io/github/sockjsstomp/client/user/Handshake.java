package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.login.BearerToken;
import io.github.sockjsstomp.client.wiring.ConnectWatch;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandler;
import org.springframework.web.socket.WebSocketHttpHeaders;

/** The start of a virtual user's connect: what goes on the handshake and into the CONNECT frame. */
final class Handshake {

    private Handshake() {}

    /**
     * Starts the handshake with the user's handshake headers (Origin, User-Agent, the plan's), cookies (and those
     * SockJS's /info sets) and bearer token, offering the user's compression on the WebSocket upgrade.
     */
    static CompletableFuture<StompSession> open(
            SharedStompClients shared,
            HttpLogin http,
            UserSettings use,
            URI uri,
            ConnectAttempt current,
            StompSessionHandler sessionHandler) {
        WebSocketHttpHeaders handshakeHeaders = new WebSocketHttpHeaders();
        use.connect().handshakeHeaders().of(use).forEach(handshakeHeaders::add);
        String cookie = http.cookieHeader(uri);
        if (!cookie.isEmpty()) {
            handshakeHeaders.add("Cookie", cookie);
        }
        StompHeaders connectHeaders = use.connectFrameHeaders();
        http.addCsrfTo(connectHeaders);
        if (!use.web().bearerToken().isEmpty()) {
            BearerToken bearer = new BearerToken(use.web().bearerToken());
            bearer.addTo(handshakeHeaders);
            if (use.web().bearerOnConnect()) {
                bearer.addTo(connectHeaders);
            }
        }
        return ConnectWatch.during(
                current,
                (responseUri, setCookies) -> {
                    http.addSetCookies(responseUri, setCookies);
                    handshakeHeaders.set("Cookie", http.cookieHeader(uri));
                },
                use.connect().compression(),
                () -> shared.stompClient(use.server().transport(), use.server().secure())
                        .connectAsync(uri, handshakeHeaders, connectHeaders, sessionHandler));
    }
}
