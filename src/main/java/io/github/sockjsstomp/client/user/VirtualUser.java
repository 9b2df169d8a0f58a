package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.CloseStatus;

/**
 * A virtual user: one login (its cookie store and HTTP login steps) and its STOMP session over SockJS or a
 * plain WebSocket. Owned by one JMeter thread; what arrives is handed to its {@link UserListener}s on I/O threads.
 * Timing, inboxes and the like attach as listeners: this class knows nothing of them. What it does beyond its
 * settings is fixed when it is made ({@link UserBehaviour}); its {@link SessionConnector} opens the session, this
 * class uses it (subscribe, send, disconnect) and keeps its state.
 */
public final class VirtualUser implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(VirtualUser.class);

    private final UserSettings settings;
    private final UserBehaviour behaviour;
    private final SharedStompClients shared;
    private final HttpLogin http;
    private final SessionConnector connector;
    private final AtomicLong sequence = new AtomicLong();
    private final Listeners listeners = new Listeners(this);
    // Written by the connecting thread (a JMeter thread, or an I/O thread that read CONNECTED) and on I/O threads
    // that learn of an ERROR or a loss; read by the JMeter threads.
    private volatile StompSession session;
    private volatile String lastError;
    /** The last ERROR frame since the last connect, as "message: body"; null if none came. */
    private volatile String stompError;

    private volatile boolean everConnected;
    /** Set while we close: the server's answer to our DISCONNECT (Spring's: ERROR "Session closed.") is expected. */
    private volatile boolean closing;

    /** The acknowledgements of the current session's subscriptions (none with ack auto). */
    private final List<SubscriptionAcks> subscriptionAcks = new CopyOnWriteArrayList<>();

    /** Why the current session was lost and when (epoch ms), set on the thread that learnt it; null: not lost. */
    private volatile Loss lastLoss;

    /**
     * @param behaviour how the user acknowledges, whether its sessions go silent, who hears of its losses
     * @param probe asks endpoints what they speak (transport auto, failure hints); shared by a thread's users
     */
    public VirtualUser(
            SharedStompClients shared, UserSettings settings, UserBehaviour behaviour, TransportProbe probe) {
        this.shared = shared;
        this.settings = settings;
        this.behaviour = behaviour;
        this.http = new HttpLogin(shared.httpClient(), (int)
                Math.min(Integer.MAX_VALUE, settings.connect().timeoutMillis()));
        this.connector =
                new SessionConnector(this, behaviour, probe, shared, http, new UserSessionHandler(this, listeners));
    }

    /**
     * From now on, {@code listener} hears what this user's sessions deliver; RECEIPT frames too, once a listener
     * {@linkplain UserListener#wantsReceipts wants them}.
     */
    public void addListener(UserListener listener) {
        listeners.add(listener);
    }

    public UserSettings settings() {
        return settings;
    }

    /** The current session's silence; null unless this user goes silent and has connected. */
    public Silence silence() {
        ConnectAttempt connected = connector.live();
        return connected == null ? null : connected.silence;
    }

    /** The HTTP login steps, in order; stops at a failure. */
    public List<ConnectStepResult> login() {
        return http.steps(settings);
    }

    /**
     * Opens the transport and sends CONNECT with the user's cookies, login, headers and heart-beat; waits up
     * to the connect timeout for CONNECTED. An ERROR frame ends the wait at once, with the server's message
     * and body as the step's message. A connect given up on (timeout, ERROR, interrupt) is closed, now or as
     * soon as its transport opens, so no socket or XHR thread outlives it.
     */
    public ConnectStepResult connect() throws InterruptedException {
        return connector.connect();
    }

    /**
     * Whether {@link #connectAsync} needs no thread of the caller's: a plain WebSocket (no SockJS /info), given or
     * what transport auto found the endpoint to speak (its answer is kept: asked once per thread, on the thread's
     * first connect, which waits), and no HTTP login steps, each of which blocks the thread it runs on.
     */
    public boolean connectsWithoutWaiting() {
        return connector.connectsWithoutWaiting();
    }

    /**
     * {@link #connect} with no thread waiting for it (only where {@link #connectsWithoutWaiting}): the step
     * completes on the thread that ends the wait, the I/O thread that read CONNECTED or an ERROR frame, a
     * heart-beat wheel's thread at the connect timeout, or the thread that gave the connect up ({@link #disconnect}),
     * which completes it exceptionally with an InterruptedException, as {@link #connect} throws one.
     */
    public CompletableFuture<ConnectStepResult> connectAsync() {
        return connector.connectAsync();
    }

    /** A connect begins: the session before it is closed, and what it said of itself forgotten. */
    void beginConnect() {
        closeSession();
        lastError = null;
        stompError = null;
        closing = false;
    }

    /** The connect under way ended with CONNECTED: {@code connected} is the session from now on. */
    void connected(StompSession connected) {
        session = connected;
        everConnected = true;
        lastLoss = null;
    }

    /**
     * What the WebSocket of the user's last connect agreed on with the server: the extension as the server answered it
     * ({@code permessage-deflate; client_max_window_bits=15}), or {@code none}; null before its transport opened.
     */
    public String agreedExtensions() {
        ConnectAttempt connected = connector.live();
        return connected == null ? null : connected.agreedExtensions;
    }

    /** Subscribes the current session with STOMP's defaults: {@link #subscribe(String, Map)} with no headers. */
    public ConnectStepResult subscribe(String destination) {
        return subscribe(destination, Map.of());
    }

    /**
     * Subscribes the current session; messages go to the listeners. The step is labelled
     * {@code subscribe} whatever the destination, so thousands of users make one label, not thousands.
     *
     * @param headers the user's own SUBSCRIBE headers (no {@code destination}); an {@code id} among them replaces
     *     the session's, the others go as they are
     */
    public ConnectStepResult subscribe(String destination, Map<String, String> headers) {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        StompSession current = session;
        if (current == null || !current.isConnected()) {
            return ConnectStepResult.failure(
                    "subscribe",
                    "NotConnected",
                    "SUBSCRIBE " + destination + ": " + notConnectedReason(),
                    startMillis,
                    startNanos);
        }
        try {
            StompHeaders frame = new StompHeaders();
            headers.forEach(frame::add);
            frame.setDestination(destination);
            AckSettings consumer = behaviour.acks();
            SubscriptionAcks acknowledging = null;
            if (consumer.acknowledges()) {
                frame.setAck(consumer.mode().header());
                acknowledging = new SubscriptionAcks(current, consumer, shared.consumerScheduler(), this);
                subscriptionAcks.add(acknowledging);
            }
            current.subscribe(frame, listeners.subscription(settings, destination, acknowledging));
            return ConnectStepResult.success(
                    "subscribe",
                    "200",
                    "SUBSCRIBE " + destination + described(headers),
                    startMillis,
                    startNanos,
                    0,
                    "");
        } catch (RuntimeException e) {
            return ConnectStepResult.failure(
                    "subscribe",
                    Failure.IO_ERROR,
                    "SUBSCRIBE " + destination + ": " + Failure.describe(e),
                    startMillis,
                    startNanos);
        }
    }

    /** The user's SUBSCRIBE headers as the step's message shows them, secret values hidden; "" for none. */
    private static String described(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(" (");
        headers.forEach((name, value) -> out.append(out.length() > 2 ? ";" : "")
                .append(name)
                .append(':')
                .append(HeaderList.isSecret(name) ? HeaderList.HIDDEN : value));
        return out.append(')').toString();
    }

    /** The next number of this user's message sequence ({@code {{seq}}}), from 1. */
    public long nextSeq() {
        return sequence.incrementAndGet();
    }

    /**
     * Writes a SEND on this thread.
     *
     * @throws SendFailedException if the session is gone or the write failed
     */
    public void send(StompHeaders headers, byte[] payload) throws SendFailedException {
        StompSession current = session;
        if (current == null || !current.isConnected()) {
            throw new SendFailedException(notConnectedReason(), null);
        }
        Silence silent = silence();
        if (silent != null && silent.wentSilent()) {
            throw new SendFailedException("Gone silent (silentShare): this session sends nothing", null);
        }
        try {
            current.send(headers, payload);
        } catch (RuntimeException e) {
            throw new SendFailedException("SEND to " + headers.getDestination() + " failed: " + Failure.describe(e), e);
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

    /** Why the user's last session was lost and when, as it learnt it; null while it was not (or not yet). */
    public Loss lastLoss() {
        return lastLoss;
    }

    /** A lost session: why ({@link SessionLoss}) and when, epoch milliseconds. */
    public record Loss(SessionLoss cause, long epochMs) {}

    /** Why the session is not usable: the last ERROR frame or transport error, if any. */
    public String notConnectedReason() {
        String error = lastError;
        return error == null ? "Not connected" : "Not connected: " + error;
    }

    public long messagesReceived() {
        return listeners.messages();
    }

    /** Sends DISCONNECT and closes the session, or gives up a connect under way; the cookies stay. */
    public void disconnect() {
        connector.releaseLive();
        closeSession();
        connector.abandonUnderWay();
    }

    @Override
    public void close() {
        disconnect();
        http.clearCookies();
    }

    private void closeSession() {
        StompSession current = session;
        session = null;
        closing = true;
        if (current != null && current.isConnected()) {
            // what the consumer is done with is acknowledged before the DISCONNECT
            subscriptionAcks.forEach(SubscriptionAcks::finish);
            try {
                current.disconnect();
            } catch (RuntimeException e) {
                log.debug("DISCONNECT failed for {}: {}", this, e.toString());
            }
        }
        subscriptionAcks.forEach(SubscriptionAcks::lost);
        subscriptionAcks.clear();
    }

    @Override
    public String toString() {
        StompSession current = session;
        return "VirtualUser[" + settings.name()
                + (settings.credentials().login().isEmpty()
                        ? ""
                        : " (" + settings.credentials().login() + ")")
                + ", " + connector.used().server().transport() + ", "
                + (current == null
                        ? "no session"
                        : "session " + current.getSessionId() + (current.isConnected() ? "" : " (closed)"))
                + "]";
    }

    // What the session handler (UserSessionHandler) reports, on the I/O thread that read it.

    /** Our DISCONNECT is under way: the server's ERROR or close that answers it is expected. */
    boolean closing() {
        return closing;
    }

    /**
     * An ERROR frame ("message: body"): it fails a connect under way and is the reason the session is unusable if it
     * closes. Said at DEBUG only: a refusal on an open session is said by the run, once per text, a refused connect
     * by its sample and the run's connect failures.
     *
     * @return whether it came on an open session (not in answer to CONNECT)
     */
    boolean errorFrame(String error) {
        stompError = error;
        lastError = "ERROR frame: " + error;
        log.debug("{} got ERROR frame: {}", this, error);
        if (connector.refusedUnderWay(error)) {
            return false;
        }
        return session != null;
    }

    /**
     * The transport of {@code lost} failed or closed, for {@code reason}; returns why the session is unusable (an
     * ERROR frame before it says more than the close).
     */
    String transportLost(StompSession lost, String reason, SessionLoss cause) {
        boolean missed = cause == SessionLoss.MISSED_HEARTBEATS;
        if (lastError == null || missed && !lastError.startsWith("ERROR frame")) {
            lastError = reason;
        }
        StompSession current = session;
        if (current == lost) {
            lossLearnt(cause);
            // the broker delivers again what was not acknowledged
            subscriptionAcks.forEach(SubscriptionAcks::lost);
        }
        if (current == lost && current.isConnected()) {
            // A frame that could not be decoded: what follows it cannot be trusted either.
            log.warn("{} closes its session after: {}", this, reason);
            closeSession();
        }
        return lastError;
    }

    /**
     * The current session's loss is told once, with its first cause; then again only if missed heart-beats come to
     * explain it (the read inactivity's own close, reported first as a transport error), at the first one's time.
     */
    private synchronized void lossLearnt(SessionLoss cause) {
        Loss before = lastLoss;
        if (before != null
                && (before.cause() == SessionLoss.MISSED_HEARTBEATS || cause != SessionLoss.MISSED_HEARTBEATS)) {
            return;
        }
        Loss now = new Loss(cause, before == null ? System.currentTimeMillis() : before.epochMs());
        lastLoss = now;
        behaviour.losses().sessionLost(cause, now.epochMs(), before == null ? null : before.cause());
    }

    /** How the current session's WebSocket closed; null while open or unknown. */
    CloseStatus closedWith() {
        ConnectAttempt connect = connector.live();
        return connect == null ? null : connect.closedWith;
    }
}
