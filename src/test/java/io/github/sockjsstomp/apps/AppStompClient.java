package io.github.sockjsstomp.apps;

import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.WebSocketTransport;

/**
 * Test helper: Spring's plain {@link WebSocketStompClient}, over a WebSocket or SockJS's websocket transport,
 * as a user of these apps would write it. Byte payloads; every wait is bounded by {@link #TIMEOUT_SECONDS}.
 */
public final class AppStompClient implements AutoCloseable {

    public static final long TIMEOUT_SECONDS = 10;

    private final WebSocketStompClient raw;
    private final WebSocketStompClient sockJs;

    public AppStompClient() {
        StandardWebSocketClient webSocketClient = new StandardWebSocketClient();
        this.raw = new WebSocketStompClient(webSocketClient);
        this.sockJs = new WebSocketStompClient(new SockJsClient(List.of(new WebSocketTransport(webSocketClient))));
    }

    /** A connect under way: its session, and the ERROR frame or transport error that may end it. */
    public record Connection(CompletableFuture<StompSession> session, CompletableFuture<String> error) {

        /** The session once CONNECTED; fails the test with the server's refusal otherwise. */
        public StompSession await() throws Exception {
            CompletableFuture.anyOf(session, error).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (session.isDone() && !session.isCompletedExceptionally()) {
                return session.getNow(null);
            }
            throw new AssertionError("Connect refused: " + refusal());
        }

        /** Why the connect failed: the ERROR frame's message, else the transport's failure. */
        public String refusal() throws Exception {
            try {
                CompletableFuture.anyOf(session, error).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                return String.valueOf(e.getCause());
            }
            if (error.isDone()) {
                return error.get();
            }
            throw new AssertionError("Connected, expected a refusal");
        }
    }

    /** Connects to {@code url}: ws:// for a plain endpoint, http:// for SockJS. */
    public Connection connect(String url, boolean overSockJs, WebSocketHttpHeaders handshake, StompHeaders connect) {
        CompletableFuture<String> error = new CompletableFuture<>();
        WebSocketStompClient client = overSockJs ? sockJs : raw;
        CompletableFuture<StompSession> session =
                client.connectAsync(URI.create(url), handshake, connect, new StompSessionHandlerAdapter() {
                    @Override
                    public Type getPayloadType(StompHeaders headers) {
                        return byte[].class;
                    }

                    @Override
                    public void handleFrame(StompHeaders headers, Object payload) {
                        String body = payload == null ? "" : new String((byte[]) payload, StandardCharsets.UTF_8);
                        error.complete("ERROR " + headers.getFirst("message") + " " + body.strip());
                    }

                    @Override
                    public void handleException(
                            StompSession s,
                            StompCommand command,
                            StompHeaders headers,
                            byte[] payload,
                            Throwable exception) {
                        error.complete("Exception " + exception);
                    }

                    @Override
                    public void handleTransportError(StompSession s, Throwable exception) {
                        error.complete("Transport error " + exception);
                    }
                });
        return new Connection(session, error);
    }

    /** Subscribes; each MESSAGE body arrives in the queue as UTF-8 text. */
    public static BlockingQueue<String> subscribe(StompSession session, String destination) {
        BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        session.subscribe(destination, new StompFrameHandler() {
            @Override
            public Type getPayloadType(StompHeaders headers) {
                return byte[].class;
            }

            @Override
            public void handleFrame(StompHeaders headers, Object payload) {
                messages.add(payload == null ? "" : new String((byte[]) payload, StandardCharsets.UTF_8));
            }
        });
        return messages;
    }

    /** Sends a body to {@code destination}: JSON if it starts with a brace, else plain text. */
    public static void send(StompSession session, String destination, String body) {
        StompHeaders headers = new StompHeaders();
        headers.setDestination(destination);
        headers.setContentType(body.startsWith("{") ? MimeTypeUtils.APPLICATION_JSON : MimeTypeUtils.TEXT_PLAIN);
        session.send(headers, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sends until an answer arrives, up to 5 times, waiting {@code waitMillis} each: neither app preserves the
     * order of a SUBSCRIBE and the SEND right after it, so the first answer may go out before the
     * subscription is registered.
     */
    public static String sendUntilAnswered(
            StompSession session, BlockingQueue<String> answers, String destination, String body, long waitMillis)
            throws InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            send(session, destination, body);
            String answer = answers.poll(waitMillis, TimeUnit.MILLISECONDS);
            if (answer != null) {
                return answer;
            }
        }
        return null;
    }

    /** The next message, or null after {@link #TIMEOUT_SECONDS}. */
    public static String next(BlockingQueue<String> messages) throws InterruptedException {
        return messages.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        raw.stop();
        sockJs.stop();
    }
}
