package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.CloseStatus;

/**
 * A virtual user: one login (its cookie store and HTTP login steps) and its STOMP session over SockJS or a
 * plain WebSocket. Owned by one JMeter thread; what arrives is handed to its {@link UserListener}s on I/O threads.
 * Timing, inboxes and the like attach as listeners: this class knows nothing of them.
 */
public final class VirtualUser implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(VirtualUser.class);

    private final UserSettings settings;
    /** The settings of the last connect: with transport auto, what the probe chose. */
    private volatile UserSettings used;

    private final TransportProbe probe;
    private final SharedStompClients shared;
    private final HttpLogin http;
    private final UserSessionHandler sessionHandler;
    private final AtomicLong sequence = new AtomicLong();
    private final Listeners listeners = new Listeners(this);
    private volatile StompSession session;
    private volatile String lastError;
    /** The last ERROR frame since the last connect, as "message: body"; null if none came. */
    private volatile String stompError;

    private volatile ConnectAttempt attempt;
    /** The connect whose transport is the current session's (how it closed, if it did). */
    private volatile ConnectAttempt live;

    private volatile boolean everConnected;
    /** Set while we close: the server's answer to our DISCONNECT (Spring's: ERROR "Session closed.") is expected. */
    private volatile boolean closing;
    /** Whether a listener wants RECEIPT frames: until then the session does not look for them. */
    private volatile boolean receiptsWanted;
    /** How long after each connect the session goes silent; -1: never. */
    private volatile long silentAfterMillis = -1;

    private volatile Silence.Listener silenceListener;

    /** How this user's subscriptions acknowledge; auto: not at all. */
    private volatile AckSettings acks = AckSettings.AUTO;
    /** The acknowledgements of the current session's subscriptions (none with ack auto). */
    private final List<SubscriptionAcks> subscriptionAcks = new CopyOnWriteArrayList<>();

    /** Why the current session was lost and when (epoch ms), set on the thread that learnt it; null: not lost. */
    private volatile Loss lastLoss;

    private volatile SessionLoss.Listener lossListener;

    /** @param probe asks endpoints what they speak (transport auto, failure hints); shared by a thread's users */
    public VirtualUser(SharedStompClients shared, UserSettings settings, TransportProbe probe) {
        this.shared = shared;
        this.settings = settings;
        this.used = settings;
        this.probe = probe;
        this.http = new HttpLogin(shared.httpClient(), (int)
                Math.min(Integer.MAX_VALUE, settings.connect().timeoutMillis()));
        this.sessionHandler = new UserSessionHandler(this, listeners);
    }

    /** From now on, {@code listener} hears what this user's sessions deliver. */
    public void addListener(UserListener listener) {
        listeners.add(listener);
    }

    /** From now on, RECEIPT frames reach the listeners ({@link UserListener#onReceipt}). */
    public void wantReceipts() {
        receiptsWanted = true;
    }

    public UserSettings settings() {
        return settings;
    }

    /** From the next connect on, each session goes silent {@code afterMillis} after it connected (a dead client). */
    public void goSilentAfter(long afterMillis, Silence.Listener listener) {
        silenceListener = listener;
        silentAfterMillis = afterMillis;
    }

    /**
     * From the next SUBSCRIBE on, the subscriptions ask for {@code settings}' acknowledgement mode (the SUBSCRIBE's
     * {@code ack} header) and acknowledge each message as it says.
     */
    public void consumeWith(AckSettings settings) {
        acks = settings;
    }

    /** The current session's silence; null unless this user goes silent and has connected. */
    public Silence silence() {
        ConnectAttempt connected = live;
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
        Started started = start();
        if (started.done() != null) {
            return started.done();
        }
        Throwable waited = null;
        try {
            started.connectedOrEnded().get(settings.connect().timeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            waited = e;
        } catch (InterruptedException e) {
            started.current().abandon(started.future());
            throw e;
        }
        return settle(started, waited);
    }

    /**
     * Whether {@link #connectAsync} needs no thread of the caller's: a plain WebSocket (no SockJS /info), given or
     * what transport auto found the endpoint to speak (its answer is kept: asked once per thread, on the thread's
     * first connect, which waits), and no HTTP login steps, each of which blocks the thread it runs on.
     */
    public boolean connectsWithoutWaiting() {
        Transport transport = settings.server().transport();
        boolean plain = transport == Transport.RAW
                || transport == Transport.AUTO
                        && probe.known(settings.server().endpointHttpUri()).orElse(Transport.AUTO) == Transport.RAW;
        return plain && !settings.web().hasSteps();
    }

    /**
     * {@link #connect} with no thread waiting for it (only where {@link #connectsWithoutWaiting}): the step
     * completes on the thread that ends the wait, the I/O thread that read CONNECTED or an ERROR frame, a
     * heart-beat wheel's thread at the connect timeout, or the thread that gave the connect up ({@link #disconnect}),
     * which completes it exceptionally with an InterruptedException, as {@link #connect} throws one.
     */
    public CompletableFuture<ConnectStepResult> connectAsync() {
        Started started = start();
        if (started.done() != null) {
            return CompletableFuture.completedFuture(started.done());
        }
        CompletableFuture<Object> outcome = started.connectedOrEnded();
        timeOut(outcome, settings.connect().timeoutMillis());
        return outcome.handle((ignored, failure) -> {
            Throwable waited = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause()
                    : failure;
            try {
                return settle(
                        started,
                        waited == null || waited instanceof TimeoutException ? waited : new ExecutionException(waited));
            } catch (InterruptedException givenUp) {
                throw new CompletionException(givenUp);
            }
        });
    }

    /**
     * Fails {@code outcome} with a TimeoutException after {@code millis}, on the heart-beats' wheels rather than the
     * JDK's delay thread (CompletableFuture.orTimeout): there every CONNECTED cancelled the earliest timeout, under
     * that queue's lock, and woke its thread; a wheel's cancel is a flag. Up to a tick late (25 ms).
     */
    private void timeOut(CompletableFuture<Object> outcome, long millis) {
        ScheduledFuture<?> timeout = shared.scheduler()
                .schedule(
                        () -> outcome.completeExceptionally(new TimeoutException()),
                        Instant.now().plusMillis(millis));
        outcome.whenComplete((ignored, failure) -> timeout.cancel(false));
    }

    /**
     * A connect under way: its attempt, the STOMP session's future and when it started; or {@code done}, a step
     * that failed before there was anything to wait for.
     */
    private record Started(
            ConnectAttempt current,
            CompletableFuture<StompSession> future,
            URI uri,
            long startMillis,
            long startNanos,
            ConnectStepResult done) {

        /** Done at CONNECTED, an ERROR frame or the connect given up, whichever comes first. */
        CompletableFuture<Object> connectedOrEnded() {
            return CompletableFuture.anyOf(future, current.error, current.givenUp);
        }
    }

    private Started start() {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        closeSession();
        lastError = null;
        stompError = null;
        closing = false;
        UserSettings use = settings;
        if (settings.server().transport() == Transport.AUTO) {
            TransportProbe.Result found = probe.transportFor(
                    settings.server().endpointHttpUri(),
                    http.cookieHeader(settings.server().endpointHttpUri()));
            if (!found.ok()) {
                return new Started(
                        null,
                        null,
                        null,
                        startMillis,
                        startNanos,
                        ConnectStepResult.failure(
                                "connect",
                                found.code(),
                                "transport auto: " + found.message(),
                                startMillis,
                                startNanos));
            }
            use = settings.withTransport(found.transport());
            ChosenTransports.sayOnce(settings.server().endpointHttpUri(), found);
        }
        used = use;
        URI uri = use.server().stompUri();
        long silentAfter = silentAfterMillis;
        ConnectAttempt current =
                new ConnectAttempt(silentAfter < 0 ? null : new Silence(silenceListener, settings.name()));
        attempt = current;
        live = current;
        try {
            return new Started(
                    current,
                    Handshake.open(shared, http, use, uri, current, sessionHandler),
                    uri,
                    startMillis,
                    startNanos,
                    null);
        } catch (RuntimeException e) {
            // SockJS asks /info on this thread: a refused or unknown server fails here, not in the future.
            current.abandon();
            log.debug("{} connect failed", this, e);
            return new Started(
                    current,
                    null,
                    uri,
                    startMillis,
                    startNanos,
                    failed(use, uri, Failure.of(e), startMillis, startNanos));
        } finally {
            // SockJS's /info was asked and read on this thread, inside connectAsync.
            shared.forgetSockJsInfo(use.server().transport());
        }
    }

    private ConnectStepResult failed(UserSettings use, URI uri, Failure failure, long startMillis, long startNanos) {
        String hint = ConnectHints.forTransport(
                probe, use, failure.code(), http.cookieHeader(use.server().endpointHttpUri()));
        return ConnectStepResult.failure(
                "connect",
                failure.code(),
                "Connect to " + uri + " over " + use.server().transport() + " failed: " + failure.message() + hint,
                startMillis,
                startNanos);
    }

    /** The server answered the connect with an ERROR frame ("message: body"). */
    private ConnectStepResult refused(String error, long startMillis, long startNanos) {
        return ConnectStepResult.failure(
                "connect",
                Failure.STOMP_ERROR,
                error + ConnectHints.forStompError(used, error),
                startMillis,
                startNanos);
    }

    /**
     * The connect's step once its wait ended: CONNECTED, an ERROR frame, the connect timeout ({@code waited} a
     * TimeoutException), a failed transport ({@code waited} an ExecutionException) or the connect given up from
     * another thread ({@link #disconnect}: an InterruptedException, as if the waiting thread had been interrupted).
     */
    private ConnectStepResult settle(Started started, Throwable waited) throws InterruptedException {
        ConnectAttempt current = started.current();
        CompletableFuture<StompSession> future = started.future();
        URI uri = started.uri();
        long startMillis = started.startMillis();
        long startNanos = started.startNanos();
        if (waited instanceof TimeoutException) {
            current.abandon(future);
            return ConnectStepResult.failure(
                    "connect",
                    Failure.CONNECT_TIMEOUT,
                    "No CONNECTED from " + uri + " within " + settings.connect().timeoutMillis() + " ms",
                    startMillis,
                    startNanos);
        }
        if (waited != null) {
            if (current.givenUp.isDone()) {
                // the transport it closed ended the connect
                current.abandon(future);
                throw givenUp();
            }
            current.abandon(future);
            log.debug("{} connect failed", this, waited.getCause());
            String error = stompError;
            if (error != null) {
                return refused(error, startMillis, startNanos);
            }
            return failed(used, uri, Failure.of(waited), startMillis, startNanos);
        }
        if (current.givenUp.isDone()) {
            throw givenUp();
        }
        String error = current.error.getNow(null);
        if (error != null) {
            current.abandon(future);
            return refused(error, startMillis, startNanos);
        }
        session = future.getNow(null);
        attempt = null;
        everConnected = true;
        lastLoss = null;
        if (current.silence != null) {
            current.silence.arm(shared.scheduler(), silentAfterMillis);
        }
        return ConnectStepResult.success(
                "connect",
                "200",
                "CONNECTED over " + used.server().transport()
                        + (settings.server().transport() == Transport.AUTO ? " (auto)" : "") + " to " + uri,
                startMillis,
                startNanos,
                0,
                "");
    }

    private InterruptedException givenUp() {
        return new InterruptedException(this + ": connect given up (the user was disconnected)");
    }

    /**
     * What the WebSocket of the user's last connect agreed on with the server: the extension as the server answered it
     * ({@code permessage-deflate; client_max_window_bits=15}), or {@code none}; null before its transport opened.
     */
    public String agreedExtensions() {
        ConnectAttempt connected = live;
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
            AckSettings consumer = acks;
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

    /** Each lost session of this user is told to {@code listener} at the time the user learns it. */
    public void tellLossesTo(SessionLoss.Listener listener) {
        lossListener = listener;
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
        ConnectAttempt connected = live;
        if (connected != null) {
            connected.release();
        }
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
                + ", " + used.server().transport() + ", "
                + (current == null
                        ? "no session"
                        : "session " + current.getSessionId() + (current.isConnected() ? "" : " (closed)"))
                + "]";
    }

    // What the session handler (UserSessionHandler) reports, on the I/O thread that read it.

    boolean receiptsWanted() {
        return receiptsWanted;
    }

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
        ConnectAttempt current = attempt;
        if (current != null) {
            current.error.complete(error);
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
        SessionLoss.Listener listener = lossListener;
        if (listener != null) {
            listener.sessionLost(cause, now.epochMs(), before == null ? null : before.cause());
        }
    }

    /** How the current session's WebSocket closed; null while open or unknown. */
    CloseStatus closedWith() {
        ConnectAttempt connect = live;
        return connect == null ? null : connect.closedWith;
    }
}
