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
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.WebSocketHttpHeaders;

/**
 * One virtual user: its cookie store, HTTP login steps, and one STOMP session over SockJS or a raw WebSocket.
 * Owned by one JMeter thread; message callbacks arrive on I/O threads.
 *
 * <p>Subclasses hook in where the seed's ChatWebsocketClient did: {@link #beforeSend} just before a SEND is
 * written, {@link #onMessage} when a MESSAGE arrives. Hooks run on hot paths: keep them short, never block.
 */
public class StompUser implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StompUser.class);

    protected final UserSettings settings;
    private final SharedStompClients shared;
    private final HttpLogin http;
    private final SessionHandler sessionHandler = new SessionHandler();
    private final AtomicLong sequence = new AtomicLong();
    private final LongAdder messagesReceived = new LongAdder();
    private final List<String> subscriptions = new ArrayList<>();
    private volatile StompSession session;
    private volatile String lastError;
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
     * to the connect timeout for CONNECTED. An ERROR frame's message becomes the step's message.
     */
    public StepResult connect() throws InterruptedException {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        closeSession();
        lastError = null;
        closing = false;
        URI uri = settings.stompUri();
        WebSocketHttpHeaders handshakeHeaders = new WebSocketHttpHeaders();
        String cookie = http.cookieHeader(uri);
        if (!cookie.isEmpty()) {
            handshakeHeaders.add("Cookie", cookie);
        }
        CompletableFuture<StompSession> future = shared.stompClient(settings.transport()).connectAsync(uri,
                handshakeHeaders, connectHeaders(), sessionHandler);
        try {
            StompSession connected = future.get(settings.connectTimeoutMillis(), TimeUnit.MILLISECONDS);
            session = connected;
            return StepResult.success("connect", "200", "CONNECTED over " + settings.transport() + " to " + uri,
                    startMillis, startNanos, 0, "");
        } catch (TimeoutException e) {
            abandon(future);
            return StepResult.failure("connect", Failure.CONNECT_TIMEOUT, "No CONNECTED from " + uri + " within "
                    + settings.connectTimeoutMillis() + " ms", startMillis, startNanos);
        } catch (InterruptedException e) {
            abandon(future);
            throw e;
        } catch (ExecutionException e) {
            String stompError = lastError;
            if (stompError != null && stompError.startsWith("ERROR")) {
                return StepResult.failure("connect", Failure.STOMP_ERROR, stompError, startMillis, startNanos);
            }
            Failure failure = Failure.of(e);
            return StepResult.failure("connect", failure.code(), "Connect to " + uri + " over "
                    + settings.transport() + " failed: " + failure.message(), startMillis, startNanos);
        }
    }

    /** Subscribes the current session; messages arrive at {@link #onMessage}. */
    public StepResult subscribe(String destination) {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        StompSession current = session;
        if (current == null || !current.isConnected()) {
            return StepResult.failure("subscribe " + destination, "NotConnected", notConnectedReason(),
                    startMillis, startNanos);
        }
        try {
            current.subscribe(destination, new SubscriptionHandler(destination));
            subscriptions.add(destination);
            return StepResult.success("subscribe " + destination, "200", "SUBSCRIBE " + destination, startMillis,
                    startNanos, 0, "");
        } catch (RuntimeException e) {
            return StepResult.failure("subscribe " + destination, Failure.IO_ERROR, Failure.describe(e),
                    startMillis, startNanos);
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
        byte[] payload = template.render(msgId, seq, settings.threadNumber(), settings.name(), sentAtMillis)
                .getBytes(StandardCharsets.UTF_8);
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

    /** Sends DISCONNECT and closes the session; the cookie store stays for a later login. */
    public void disconnect() {
        closeSession();
    }

    @Override
    public void close() {
        closeSession();
        http.clearCookies();
    }

    // Hooks for subclasses (the seed's beforeSendMessage and subscribeCallback).

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

    /** A connect we stopped waiting for may still succeed: close it then, so no session leaks. */
    private static void abandon(CompletableFuture<StompSession> future) {
        future.whenComplete((late, error) -> {
            if (late != null && late.isConnected()) {
                late.disconnect();
            }
        });
    }

    @Override
    public String toString() {
        StompSession current = session;
        return getClass().getSimpleName() + "[" + settings.name() + ", " + settings.transport() + ", "
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
            String message = headers.getFirst("message");
            String error = "ERROR frame: " + (message == null ? new String((byte[]) payload, StandardCharsets.UTF_8)
                    : message);
            if (closing) {
                log.debug("{} got {} while closing", StompUser.this, error);
                return;
            }
            lastError = error;
            log.warn("{} got {}", StompUser.this, error);
        }

        @Override
        public void handleException(StompSession stompSession, StompCommand command, StompHeaders headers,
                byte[] payload, Throwable exception) {
            log.warn("{} failed to handle {}: {}", StompUser.this, command, exception.toString());
        }

        @Override
        public void handleTransportError(StompSession stompSession, Throwable exception) {
            if (lastError == null) {
                lastError = Failure.describe(exception);
            }
            log.debug("{} transport error: {}", StompUser.this, exception.toString());
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
                onMessage(new IncomingMessage(settings.name(), destination, headers, (byte[]) payload,
                        receivedNanos));
            } catch (RuntimeException e) {
                log.warn("{}: onMessage failed for a message on {}", StompUser.this, destination, e);
            }
        }
    }
}
