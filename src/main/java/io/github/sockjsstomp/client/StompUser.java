package io.github.sockjsstomp.client;

import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.ConnectionLostException;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.WebSocketSession;

/**
 * One virtual user: its cookie store, HTTP login steps, and one STOMP session over SockJS or a raw WebSocket.
 * Owned by one JMeter thread; message callbacks arrive on I/O threads.
 *
 * <p>Subclasses hook in at three points: {@link #beforeSend} just before a SEND is
 * written, {@link #onMessage} when a MESSAGE arrives. Hooks run on hot paths: keep them short, never block.
 */
public class StompUser implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StompUser.class);
    private static final byte[] EMPTY = new byte[0];

    protected final UserSettings settings;
    private final SharedStompClients shared;
    private final HttpLogin http;
    private final SessionHandler sessionHandler = new SessionHandler();
    private final AtomicLong sequence = new AtomicLong();
    private final LongAdder messagesReceived = new LongAdder();
    private final List<String> subscriptions = new ArrayList<>();
    private volatile StompSession session;
    private volatile String lastError;
    /** The last ERROR frame since the last connect, as "message: body"; null if none came. */
    private volatile String stompError;
    private volatile ConnectAttempt attempt;
    /** The connect whose transport is the current session's (how it closed, if it did). */
    private volatile ConnectAttempt live;
    private volatile boolean everConnected;
    private volatile boolean lossReported;
    /** Set while we close: the server's answer to our DISCONNECT (Spring's: ERROR "Session closed.") is expected. */
    private volatile boolean closing;

    public StompUser(SharedStompClients shared, UserSettings settings) {
        this.shared = shared;
        this.settings = settings;
        this.http = new HttpLogin(shared.httpClient(), (int) Math.min(Integer.MAX_VALUE,
                settings.connectTimeoutMillis()));
    }

    public String name() {
        return settings.name();
    }

    public UserSettings settings() {
        return settings;
    }

    /** The index page then the clientPull request, each skipped when its path is empty; stops at a failure. */
    public List<StepResult> login() {
        List<StepResult> steps = new ArrayList<>(2);
        if (!settings.indexPath().isEmpty()) {
            steps.add(http.get("index", settings.httpUri(settings.indexPath())));
        }
        if (!settings.pullPath().isEmpty() && (steps.isEmpty() || steps.get(0).ok())) {
            steps.add(http.get("clientPull", settings.httpUri(settings.pullPath())));
        }
        return steps;
    }

    /**
     * Opens the transport and sends CONNECT with the user's cookies, login, headers and heart-beat; waits up
     * to the connect timeout for CONNECTED. An ERROR frame ends the wait at once, with the server's message
     * and body as the step's message. A connect given up on (timeout, ERROR, interrupt) is closed, now or as
     * soon as its transport opens, so no socket or XHR thread outlives it.
     */
    public StepResult connect() throws InterruptedException {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        closeSession();
        lastError = null;
        stompError = null;
        closing = false;
        URI uri = settings.stompUri();
        WebSocketHttpHeaders handshakeHeaders = new WebSocketHttpHeaders();
        String cookie = http.cookieHeader(uri);
        if (!cookie.isEmpty()) {
            handshakeHeaders.add("Cookie", cookie);
        }
        ConnectAttempt current = new ConnectAttempt();
        attempt = current;
        live = current;
        CompletableFuture<StompSession> future;
        try {
            future = SockJsCookies.during((responseUri, setCookies) -> {
                http.addSetCookies(responseUri, setCookies);
                handshakeHeaders.set("Cookie", http.cookieHeader(uri));
            }, () -> SerializingWebSocketClient.withTransportListener(current,
                    () -> shared.stompClient(settings.transport(), settings.secure()).connectAsync(uri, handshakeHeaders,
                            connectHeaders(), sessionHandler)));
        } catch (RuntimeException e) {
            // SockJS asks /info on this thread: a refused or unknown server fails here, not in the future.
            current.abandon();
            Failure failure = Failure.of(e);
            return StepResult.failure("connect", failure.code(), "Connect to " + uri + " over "
                    + settings.transport() + " failed: " + failure.message(), startMillis, startNanos);
        } finally {
            // SockJS's /info was asked and read on this thread, inside connectAsync.
            shared.forgetSockJsInfo(settings.transport());
        }
        try {
            CompletableFuture.anyOf(future, current.error).get(settings.connectTimeoutMillis(),
                    TimeUnit.MILLISECONDS);
            String error = current.error.getNow(null);
            if (error != null) {
                current.abandon(future);
                return StepResult.failure("connect", Failure.STOMP_ERROR, error, startMillis, startNanos);
            }
            session = future.getNow(null);
            attempt = null;
            everConnected = true;
            lossReported = false;
            return StepResult.success("connect", "200", "CONNECTED over " + settings.transport() + " to " + uri,
                    startMillis, startNanos, 0, "");
        } catch (TimeoutException e) {
            current.abandon(future);
            return StepResult.failure("connect", Failure.CONNECT_TIMEOUT, "No CONNECTED from " + uri + " within "
                    + settings.connectTimeoutMillis() + " ms", startMillis, startNanos);
        } catch (InterruptedException e) {
            current.abandon(future);
            throw e;
        } catch (ExecutionException e) {
            current.abandon(future);
            String error = stompError;
            if (error != null) {
                return StepResult.failure("connect", Failure.STOMP_ERROR, error, startMillis, startNanos);
            }
            Failure failure = Failure.of(e);
            return StepResult.failure("connect", failure.code(), "Connect to " + uri + " over "
                    + settings.transport() + " failed: " + failure.message(), startMillis, startNanos);
        }
    }

    /**
     * Subscribes the current session; messages arrive at {@link #onMessage}. The step is labelled
     * {@code subscribe} whatever the destination, so thousands of users make one label, not thousands.
     */
    public StepResult subscribe(String destination) {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        StompSession current = session;
        if (current == null || !current.isConnected()) {
            return StepResult.failure("subscribe", "NotConnected", "SUBSCRIBE " + destination + ": "
                    + notConnectedReason(), startMillis, startNanos);
        }
        try {
            current.subscribe(destination, new SubscriptionHandler(destination));
            subscriptions.add(destination);
            return StepResult.success("subscribe", "200", "SUBSCRIBE " + destination, startMillis, startNanos, 0,
                    "");
        } catch (RuntimeException e) {
            return StepResult.failure("subscribe", Failure.IO_ERROR, "SUBSCRIBE " + destination + ": "
                    + Failure.describe(e), startMillis, startNanos);
        }
    }

    /**
     * Builds the message from the template, lets {@link #beforeSend} see it, and writes it on this thread.
     *
     * @throws SendFailedException if the session is gone or the write failed; {@link #afterSendFailed} saw it
     */
    public OutgoingMessage send(String destination, Map<String, String> headers, PayloadTemplate template)
            throws SendFailedException {
        StompSession current = session;
        long seq = sequence.incrementAndGet();
        String msgId = newMessageId();
        long sentAtMillis = System.currentTimeMillis();
        StompHeaders stompHeaders = new StompHeaders();
        stompHeaders.setDestination(destination);
        headers.forEach(stompHeaders::add);
        byte[] payload = template.render(msgId, seq, settings.threadNumber(), settings.session(), settings.name(),
                sentAtMillis).getBytes(StandardCharsets.UTF_8);
        OutgoingMessage outgoing = new OutgoingMessage(settings.name(), destination, stompHeaders, seq, msgId,
                payload, sentAtMillis);
        beforeSend(outgoing);
        if (current == null || !current.isConnected()) {
            String reason = notConnectedReason();
            afterSendFailed(outgoing, reason);
            throw new SendFailedException(reason, outgoing, null);
        }
        try {
            current.send(stompHeaders, payload);
            return outgoing;
        } catch (RuntimeException e) {
            String reason = "SEND to " + destination + " failed: " + Failure.describe(e);
            afterSendFailed(outgoing, reason);
            throw new SendFailedException(reason, outgoing, e);
        }
    }

    /**
     * Writes a control message (a push request, say) as it is: no id, no hooks, not in the books.
     *
     * @throws SendFailedException if the session is gone or the write failed
     */
    public void sendUntimed(String destination, Map<String, String> headers, byte[] payload)
            throws SendFailedException {
        StompSession current = session;
        if (current == null || !current.isConnected()) {
            throw new SendFailedException(notConnectedReason(), null, null);
        }
        StompHeaders stompHeaders = new StompHeaders();
        stompHeaders.setDestination(destination);
        headers.forEach(stompHeaders::add);
        try {
            current.send(stompHeaders, payload);
        } catch (RuntimeException e) {
            throw new SendFailedException("SEND to " + destination + " failed: " + Failure.describe(e), null, e);
        }
    }

    public boolean isConnected() {
        StompSession current = session;
        return current != null && current.isConnected();
    }

    /** The last ERROR frame since the last connect ("message: body"), or null. */
    public String stompError() {
        return stompError;
    }

    /** Whether a connect of this user ever succeeded: a session lost since then is reported as lost. */
    public boolean everConnected() {
        return everConnected;
    }

    /** Whether the loss of the last session was reported already; a successful connect clears it. */
    public boolean lossReported() {
        return lossReported;
    }

    public void markLossReported() {
        lossReported = true;
    }

    /** Why the session is not usable: the last ERROR frame or transport error, if any. */
    public String notConnectedReason() {
        String error = lastError;
        return error == null ? "Not connected" : "Not connected: " + error;
    }

    public long messagesReceived() {
        return messagesReceived.sum();
    }

    public List<String> cookieNames() {
        return http.cookies().stream().map(c -> c.getName() + "=" + c.getValue()).toList();
    }

    /** Sends DISCONNECT and closes the session, or gives up a connect under way; the cookies stay. */
    public void disconnect() {
        closeSession();
        ConnectAttempt current = attempt;
        if (current != null) {
            current.abandon();
        }
    }

    @Override
    public void close() {
        disconnect();
        http.clearCookies();
    }

    // Hooks for subclasses: the timing layer stamps and registers messages here, and matches replies.

    /** The id to stamp into the next message ({@code {{msgId}}}), or null: the timing layer supplies one. */
    protected String newMessageId() {
        return null;
    }

    /** Called just before the SEND is written, on the sending thread. */
    protected void beforeSend(OutgoingMessage message) {
    }

    /** Called when a SEND could not be written, on the sending thread. */
    protected void afterSendFailed(OutgoingMessage message, String reason) {
    }

    /** Called for every MESSAGE on any subscription of this user, on an I/O thread: never block here. */
    protected void onMessage(IncomingMessage message) {
    }

    /** Called when an ERROR frame arrives (not one answering our own DISCONNECT), on an I/O thread. */
    protected void onStompError(String error) {
    }

    /**
     * Called when the session is lost (closed by the server or the network, heart-beats that stopped arriving,
     * a frame that cannot be decoded), not when we close it; on an I/O or heart-beat thread.
     */
    protected void onConnectionLost(String reason) {
    }

    private StompHeaders connectHeaders() {
        StompHeaders headers = new StompHeaders();
        if (!settings.login().isEmpty()) {
            headers.setLogin(settings.login());
        }
        if (!settings.passcode().isEmpty()) {
            headers.setPasscode(settings.passcode());
        }
        settings.connectHeaders().forEach(headers::add);
        headers.setHeartbeat(new long[] {settings.heartbeatMillis(), settings.heartbeatMillis()});
        return headers;
    }

    private void closeSession() {
        StompSession current = session;
        session = null;
        subscriptions.clear();
        closing = true;
        if (current != null && current.isConnected()) {
            try {
                current.disconnect();
            } catch (RuntimeException e) {
                log.debug("DISCONNECT failed for {}: {}", this, e.toString());
            }
        }
    }

    /** An ERROR frame as users read it: the message header, then the body; either may be missing. */
    static String describeError(StompHeaders headers, byte[] body) {
        String message = headers.getFirst("message");
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8).strip();
        if (message == null || message.isBlank()) {
            return text.isEmpty() ? "ERROR frame without message or body" : text;
        }
        return text.isEmpty() || text.equals(message) ? message : message + ": " + text;
    }

    @Override
    public String toString() {
        StompSession current = session;
        return "StompUser[" + settings.name() + ", " + settings.transport() + ", "
                + (current == null ? "no session" : "session " + current.getSessionId()
                        + (current.isConnected() ? "" : " (closed)")) + "]";
    }

    private final class SessionHandler extends StompSessionHandlerAdapter {

        @Override
        public Type getPayloadType(StompHeaders headers) {
            return byte[].class;
        }

        @Override
        public void handleFrame(StompHeaders headers, Object payload) {
            // Spring hands an empty body over as null.
            String error = describeError(headers, (byte[]) payload);
            if (closing) {
                log.debug("{} got ERROR while closing: {}", StompUser.this, error);
                return;
            }
            stompError = error;
            lastError = "ERROR frame: " + error;
            log.warn("{} got ERROR frame: {}", StompUser.this, error);
            ConnectAttempt current = attempt;
            if (current != null) {
                current.error.complete(error);
            }
            try {
                onStompError(error);
            } catch (RuntimeException e) {
                log.warn("{}: onStompError failed", StompUser.this, e);
            }
        }

        @Override
        public void handleException(StompSession stompSession, StompCommand command, StompHeaders headers,
                byte[] payload, Throwable exception) {
            log.warn("{} failed to handle {}: {}", StompUser.this, command, exception.toString());
        }

        @Override
        public void handleTransportError(StompSession stompSession, Throwable exception) {
            log.debug("{} transport error: {}", StompUser.this, exception.toString());
            if (closing) {
                return;
            }
            String reason = describeLoss(exception);
            if (lastError == null) {
                lastError = reason;
            }
            StompSession current = session;
            if (current == stompSession && current.isConnected()) {
                // A frame that could not be decoded: what follows it cannot be trusted either.
                log.warn("{} closes its session after: {}", StompUser.this, reason);
                closeSession();
            }
            try {
                onConnectionLost(lastError);
            } catch (RuntimeException e) {
                log.warn("{}: onConnectionLost failed", StompUser.this, e);
            }
        }

        private String describeLoss(Throwable exception) {
            ConnectAttempt connect = live;
            CloseStatus status = connect == null ? null : connect.closedWith;
            if (exception instanceof ConnectionLostException && status != null) {
                String reason = status.getReason();
                return "Connection closed with status " + status.getCode()
                        + (reason == null || reason.isBlank() ? "" : " (" + reason + ")");
            }
            return Failure.describe(exception);
        }
    }

    private final class SubscriptionHandler implements StompFrameHandler {

        private final String destination;

        SubscriptionHandler(String destination) {
            this.destination = destination;
        }

        @Override
        public Type getPayloadType(StompHeaders headers) {
            return byte[].class;
        }

        @Override
        public void handleFrame(StompHeaders headers, Object payload) {
            long receivedNanos = System.nanoTime();
            messagesReceived.increment();
            try {
                // Spring hands an empty body over as null.
                byte[] body = payload == null ? EMPTY : (byte[]) payload;
                onMessage(new IncomingMessage(settings.name(), destination, headers, body, receivedNanos));
            } catch (RuntimeException e) {
                log.warn("{}: onMessage failed for a message on {}", StompUser.this, destination, e);
            }
        }
    }

    /**
     * One connect: its transport session once open, the ERROR that may end it early, and how the transport
     * closed (Spring's STOMP session reports every close as "Connection closed").
     */
    private static final class ConnectAttempt implements SerializingWebSocketClient.TransportListener {

        final CompletableFuture<String> error = new CompletableFuture<>();
        private WebSocketSession transport;
        private boolean abandoned;
        volatile CloseStatus closedWith;

        @Override
        public void closed(CloseStatus status) {
            closedWith = status;
        }

        @Override
        public synchronized void established(WebSocketSession opened) {
            transport = opened;
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
            if (opened != null) {
                closeQuietly(opened);
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
}
