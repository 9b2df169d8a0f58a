package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.deflate.DeflateOffer;
import io.github.sockjsstomp.client.wiring.TransportListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/**
 * One connect of a virtual user: its transport session once open, the ERROR that may end it early, and how
 * the transport closed (Spring's STOMP session reports every close as "Connection closed"). A connect given
 * up on is closed now, or as soon as its transport opens, so no socket or XHR thread outlives it.
 */
final class ConnectAttempt implements TransportListener {

    private static final Logger log = LoggerFactory.getLogger(ConnectAttempt.class);

    final CompletableFuture<String> error = new CompletableFuture<>();
    /**
     * Done once the connect is given up from outside (JMeter's Stop, the test's end): it ends the wait for
     * CONNECTED without interrupting the connecting thread, which may be writing (Tomcat fails a write whose thread
     * is interrupted and then closes the socket without a close frame).
     */
    final CompletableFuture<Void> givenUp = new CompletableFuture<>();
    /** Null unless this connect's session is to go silent. */
    final Silence silence;

    private WebSocketSession transport;
    private boolean abandoned;
    volatile CloseStatus closedWith;
    /** What the WebSocket under the session agreed on ({@link DeflateOffer#agreed}); null until it opened. */
    volatile String agreedExtensions;

    ConnectAttempt(Silence silence) {
        this.silence = silence;
    }

    @Override
    public WebSocketSession outgoing(WebSocketSession session) {
        return silence == null ? session : silence.outgoing(session);
    }

    @Override
    public void closed(CloseStatus status) {
        closedWith = status;
        if (silence != null) {
            silence.closed(status);
        }
    }

    /**
     * We close the session from here on (teardown, Stop). A silent one drops STOMP's DISCONNECT and close, so
     * its transport is closed here, or it would stay open after the test.
     */
    void release() {
        if (silence == null) {
            return;
        }
        boolean held = silence.heldSilent();
        silence.release();
        if (held) {
            abandon();
        }
    }

    @Override
    public synchronized void established(WebSocketSession opened) {
        transport = opened;
        agreedExtensions = agreedBy(opened);
        if (abandoned) {
            closeQuietly(opened);
        }
    }

    /** Closes the transport now, or as soon as it opens; a STOMP session that still connects is closed. */
    void abandon(CompletableFuture<StompSession> future) {
        abandon();
        future.whenComplete((late, failure) -> {
            if (late != null && late.isConnected()) {
                late.disconnect();
            }
        });
    }

    void abandon() {
        WebSocketSession opened;
        synchronized (this) {
            abandoned = true;
            opened = transport;
        }
        givenUp.complete(null);
        if (opened != null) {
            closeQuietly(opened);
        }
    }

    /** SockJS's XHR sessions have no WebSocket, and agreed on nothing. */
    private static String agreedBy(WebSocketSession opened) {
        try {
            return DeflateOffer.agreed(opened.getExtensions());
        } catch (RuntimeException e) {
            return DeflateOffer.agreed(List.of());
        }
    }

    private static void closeQuietly(WebSocketSession opened) {
        try {
            if (opened.isOpen()) {
                opened.close(CloseStatus.GOING_AWAY);
            }
        } catch (Exception e) {
            log.debug("Closing an abandoned transport session failed: {}", e.toString());
        }
    }
}
