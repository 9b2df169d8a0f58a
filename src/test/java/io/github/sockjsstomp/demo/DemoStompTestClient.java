package io.github.sockjsstomp.demo;

import jakarta.websocket.ContainerProvider;
import jakarta.websocket.WebSocketContainer;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.springframework.lang.Nullable;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.WebSocketClient;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;
import org.springframework.web.socket.sockjs.client.RestTemplateXhrTransport;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.WebSocketTransport;

/**
 * Test helper: Spring's own STOMP client (byte[] payloads, SimpleMessageConverter) over SockJS (WebSocket
 * transport) or raw WebSocket, against a {@link DemoServer}. Every wait is bounded by {@link #TIMEOUT_SECONDS}.
 */
final class DemoStompTestClient implements AutoCloseable {

    static final long TIMEOUT_SECONDS = 10;

    private final DemoServer server;

    private final ThreadPoolTaskScheduler heartbeatScheduler = new ThreadPoolTaskScheduler();

    private final WebSocketStompClient sockJsStompClient;

    private final WebSocketStompClient rawStompClient;

    private final WebSocketStompClient xhrStompClient;

    DemoStompTestClient(DemoServer server) {
        this.server = server;
        this.heartbeatScheduler.setPoolSize(1);
        this.heartbeatScheduler.setThreadNamePrefix("test-stomp-heartbeat-");
        this.heartbeatScheduler.setDaemon(true);
        this.heartbeatScheduler.initialize();

        // Tomcat's client container defaults to 8 KiB message buffers: a 10000-byte push frame would be
        // refused (close 1009) without this.
        WebSocketContainer container = ContainerProvider.getWebSocketContainer();
        container.setDefaultMaxTextMessageBufferSize(2 * 1024 * 1024);
        container.setDefaultMaxBinaryMessageBufferSize(2 * 1024 * 1024);
        StandardWebSocketClient webSocketClient = new StandardWebSocketClient(container);

        this.sockJsStompClient = newStompClient(new SockJsClient(List.of(new WebSocketTransport(webSocketClient))));
        this.rawStompClient = newStompClient(webSocketClient);
        // SockJS HTTP transports only: xhr_streaming, falling back to xhr polling.
        this.xhrStompClient = newStompClient(new SockJsClient(List.of(new RestTemplateXhrTransport())));
    }

    private WebSocketStompClient newStompClient(WebSocketClient client) {
        WebSocketStompClient stompClient = new WebSocketStompClient(client);
        stompClient.setInboundMessageSizeLimit(2 * 1024 * 1024);
        stompClient.setTaskScheduler(this.heartbeatScheduler); // default heart-beat 10000,10000
        stompClient.start();
        return stompClient;
    }

    /** Connects over SockJS to {@code /ws}; {@code cookieToken} null sends no Cookie header. */
    Session sockJs(@Nullable String cookieToken, @Nullable String login, @Nullable String passcode) {
        WebSocketHttpHeaders handshakeHeaders = new WebSocketHttpHeaders();
        if (cookieToken != null) {
            handshakeHeaders.add("Cookie", DemoHttpSessions.COOKIE_NAME + "=" + cookieToken);
        }
        return connect(
                this.sockJsStompClient,
                this.server.baseUrl() + DemoWebSocketConfig.SOCKJS_ENDPOINT,
                handshakeHeaders,
                login,
                passcode);
    }

    /** Connects over SockJS's HTTP transports (xhr_streaming) to {@code /ws}, with the cookie. */
    Session sockJsXhr(String cookieToken, @Nullable String login) {
        WebSocketHttpHeaders handshakeHeaders = new WebSocketHttpHeaders();
        handshakeHeaders.add("Cookie", DemoHttpSessions.COOKIE_NAME + "=" + cookieToken);
        return connect(
                this.xhrStompClient,
                this.server.baseUrl() + DemoWebSocketConfig.SOCKJS_ENDPOINT,
                handshakeHeaders,
                login,
                null);
    }

    /** Connects with plain WebSocket to {@code /stomp-ws} (no cookie). */
    Session raw(@Nullable String login) {
        return raw(login, null);
    }

    Session raw(@Nullable String login, @Nullable String passcode) {
        String url = "ws://" + DemoServer.HOST + ":" + this.server.port() + DemoWebSocketConfig.RAW_ENDPOINT;
        return connect(this.rawStompClient, url, new WebSocketHttpHeaders(), login, passcode);
    }

    private static Session connect(
            WebSocketStompClient client,
            String url,
            WebSocketHttpHeaders handshakeHeaders,
            @Nullable String login,
            @Nullable String passcode) {
        StompHeaders connectHeaders = new StompHeaders();
        if (login != null) {
            connectHeaders.setLogin(login);
        }
        if (passcode != null) {
            connectHeaders.setPasscode(passcode);
        }
        Session session = new Session();
        session.future = client.connectAsync(url, handshakeHeaders, connectHeaders, session.handler);
        return session;
    }

    @Override
    public void close() {
        this.sockJsStompClient.stop();
        this.rawStompClient.stop();
        this.xhrStompClient.stop();
        this.heartbeatScheduler.shutdown();
    }

    /** A received frame. */
    record Frame(StompHeaders headers, byte[] payload) {

        String text() {
            return new String(this.payload, StandardCharsets.UTF_8);
        }

        @Nullable
        String header(String name) {
            return this.headers.getFirst(name);
        }
    }

    /** One STOMP session and the frames it received; its {@code /user/queue/echo} subscription exists from the start. */
    static final class Session implements AutoCloseable {

        private static final String SYNC_HEADER = "x-test-sync";

        private static final AtomicInteger syncCounter = new AtomicInteger();

        final BlockingQueue<Frame> errors = new LinkedBlockingQueue<>();

        final BlockingQueue<Throwable> transportErrors = new LinkedBlockingQueue<>();

        /** Frames at /user/queue/echo, except this helper's own {@link #sync()} replies. */
        final BlockingQueue<Frame> echoes = new LinkedBlockingQueue<>();

        private final BlockingQueue<String> syncReplies = new LinkedBlockingQueue<>();

        /** Completed by afterConnected, which Spring calls just AFTER completing the connect future. */
        private final CompletableFuture<StompHeaders> connectedHeaders = new CompletableFuture<>();

        private CompletableFuture<StompSession> future;

        private StompSession stompSession;

        final StompSessionHandlerAdapter handler = new StompSessionHandlerAdapter() {

            @Override
            public void afterConnected(StompSession session, StompHeaders headers) {
                Session.this.connectedHeaders.complete(headers);
            }

            @Override
            public Type getPayloadType(StompHeaders headers) {
                return byte[].class;
            }

            @Override
            public void handleFrame(StompHeaders headers, @Nullable Object payload) {
                // Only ERROR frames reach the session handler (MESSAGE frames go to subscriptions).
                Session.this.errors.add(new Frame(headers, payload != null ? (byte[]) payload : new byte[0]));
            }

            @Override
            public void handleException(
                    StompSession session,
                    @Nullable StompCommand command,
                    StompHeaders headers,
                    byte[] payload,
                    Throwable exception) {
                Session.this.transportErrors.add(exception);
            }

            @Override
            public void handleTransportError(StompSession session, Throwable exception) {
                Session.this.transportErrors.add(exception);
            }
        };

        /** Waits for CONNECTED (bounded) and subscribes to /user/queue/echo. */
        Session awaitConnected() throws Exception {
            this.stompSession = this.future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            this.connectedHeaders.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            subscribe("/user/queue/echo", frame -> {
                String sync = frame.header(SYNC_HEADER);
                if (sync != null) {
                    this.syncReplies.add(sync);
                } else {
                    this.echoes.add(frame);
                }
            });
            return this;
        }

        /** The connect future's failure cause, waiting at most the timeout; fails if it connected. */
        Throwable awaitConnectFailure() throws InterruptedException, TimeoutException {
            try {
                StompSession connected = this.future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                connected.disconnect();
                throw new AssertionError("expected the connection to fail, but it connected");
            } catch (ExecutionException ex) {
                return ex.getCause();
            }
        }

        StompHeaders connectedHeaders() {
            return this.connectedHeaders.getNow(null);
        }

        /** Subscribes; frames arrive in the returned queue. */
        BlockingQueue<Frame> subscribe(String destination) {
            BlockingQueue<Frame> queue = new LinkedBlockingQueue<>();
            subscribe(destination, queue::add);
            return queue;
        }

        private void subscribe(String destination, Consumer<Frame> consumer) {
            this.stompSession.subscribe(destination, new StompFrameHandler() {
                @Override
                public Type getPayloadType(StompHeaders headers) {
                    return byte[].class;
                }

                @Override
                public void handleFrame(StompHeaders headers, @Nullable Object payload) {
                    consumer.accept(new Frame(headers, (byte[]) payload));
                }
            });
        }

        void send(String destination, Map<String, String> headers, byte[] payload) {
            StompHeaders stompHeaders = new StompHeaders();
            stompHeaders.setDestination(destination);
            headers.forEach(stompHeaders::add);
            this.stompSession.send(stompHeaders, payload);
        }

        void send(String destination, Map<String, String> headers, String payload) {
            send(destination, headers, payload.getBytes(StandardCharsets.UTF_8));
        }

        /**
         * A round trip through /app/echo. The server handles a session's frames in order, so when this returns
         * every SUBSCRIBE sent before it is registered.
         */
        void sync() throws InterruptedException {
            String id = Integer.toString(syncCounter.incrementAndGet());
            send("/app/echo", Map.of(SYNC_HEADER, id), "sync");
            for (; ; ) {
                String reply = this.syncReplies.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (reply == null) {
                    throw new AssertionError("no sync reply within " + TIMEOUT_SECONDS + " s");
                }
                if (reply.equals(id)) {
                    return;
                }
            }
        }

        @Override
        public void close() {
            if (this.stompSession != null && this.stompSession.isConnected()) {
                this.stompSession.disconnect();
            } else if (this.future != null) {
                this.future.cancel(true);
            }
        }
    }

    /** Polls with the standard bounded timeout. */
    static <T> T poll(BlockingQueue<T> queue) throws InterruptedException {
        T value = queue.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (value == null) {
            throw new AssertionError("nothing received within " + TIMEOUT_SECONDS + " s");
        }
        return value;
    }
}
