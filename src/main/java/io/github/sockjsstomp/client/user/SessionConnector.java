package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import java.net.URI;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.StompSession;

/**
 * Connects a virtual user's STOMP session: picks the transport (transport auto asks the probe), opens it, sends
 * CONNECT and turns what ends the wait (CONNECTED, an ERROR frame, the timeout, a failed transport, the connect given
 * up) into the connect's step. Holds the connect under way and the one whose transport the session runs on; the
 * user keeps the session itself.
 */
final class SessionConnector {

    // The user's logger: a log configuration that names VirtualUser keeps hearing of its connects.
    private static final Logger log = LoggerFactory.getLogger(VirtualUser.class);

    private final VirtualUser user;
    private final UserSettings settings;
    private final UserBehaviour behaviour;
    private final TransportProbe probe;
    private final SharedStompClients shared;
    private final HttpLogin http;
    private final UserSessionHandler sessionHandler;

    /** The settings of the last connect: with transport auto, what the probe chose. */
    private volatile UserSettings used;
    /** The connect under way, until CONNECTED: an ERROR frame read on an I/O thread ends its wait. */
    private volatile ConnectAttempt attempt;
    /** The connect whose transport is the current session's (how it closed, if it did). */
    private volatile ConnectAttempt live;

    SessionConnector(
            VirtualUser user,
            UserBehaviour behaviour,
            TransportProbe probe,
            SharedStompClients shared,
            HttpLogin http,
            UserSessionHandler sessionHandler) {
        this.user = user;
        this.settings = user.settings();
        this.used = settings;
        this.behaviour = behaviour;
        this.probe = probe;
        this.shared = shared;
        this.http = http;
        this.sessionHandler = sessionHandler;
    }

    /** See {@link VirtualUser#connect}. */
    ConnectStepResult connect() throws InterruptedException {
        Start begun = start();
        if (begun instanceof Start.FailedAtOnce failed) {
            return failed.step();
        }
        Start.Started started = (Start.Started) begun;
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

    /** See {@link VirtualUser#connectsWithoutWaiting}. */
    boolean connectsWithoutWaiting() {
        Transport transport = settings.server().transport();
        boolean plain = transport == Transport.RAW
                || transport == Transport.AUTO
                        && probe.known(settings.server().endpointHttpUri()).orElse(Transport.AUTO) == Transport.RAW;
        return plain && !settings.web().hasSteps();
    }

    /** See {@link VirtualUser#connectAsync}. */
    CompletableFuture<ConnectStepResult> connectAsync() {
        Start begun = start();
        if (begun instanceof Start.FailedAtOnce failed) {
            return CompletableFuture.completedFuture(failed.step());
        }
        Start.Started started = (Start.Started) begun;
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

    /** The settings of the last connect: with transport auto, the transport the probe chose. */
    UserSettings used() {
        return used;
    }

    /** The connect whose transport the current session runs on; null before the first connect. */
    ConnectAttempt live() {
        return live;
    }

    /** An ERROR frame: whether it ended a connect under way (it answered CONNECT). */
    boolean refusedUnderWay(String error) {
        ConnectAttempt current = attempt;
        if (current != null) {
            current.error.complete(error);
            return true;
        }
        return false;
    }

    /** We close the session from here on: a silent one's transport is closed, as STOMP's DISCONNECT is dropped. */
    void releaseLive() {
        ConnectAttempt connected = live;
        if (connected != null) {
            connected.release();
        }
    }

    /** Gives up the connect under way, if any: its wait ends, its transport is closed now or once it opens. */
    void abandonUnderWay() {
        ConnectAttempt current = attempt;
        if (current != null) {
            current.abandon();
        }
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
     * How a connect began: under way, or failed before there was anything to wait for. Sealed, so what is not a
     * failure is under way (Java 17 has no switch over the two).
     */
    private sealed interface Start {

        /** A connect under way: its attempt, the STOMP session's future and when it started. */
        record Started(
                ConnectAttempt current,
                CompletableFuture<StompSession> future,
                URI uri,
                long startMillis,
                long startNanos)
                implements Start {

            /** Done at CONNECTED, an ERROR frame or the connect given up, whichever comes first. */
            CompletableFuture<Object> connectedOrEnded() {
                return CompletableFuture.anyOf(future, current.error, current.givenUp);
            }
        }

        /** A connect that failed on the connecting thread (transport auto found nothing, SockJS's /info failed). */
        record FailedAtOnce(ConnectStepResult step) implements Start {}
    }

    private Start start() {
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        user.beginConnect();
        UserSettings use = settings;
        if (settings.server().transport() == Transport.AUTO) {
            TransportProbe.Result found = probe.transportFor(
                    settings.server().endpointHttpUri(),
                    http.cookieHeader(settings.server().endpointHttpUri()));
            if (!found.ok()) {
                return new Start.FailedAtOnce(ConnectStepResult.failure(
                        "connect", found.code(), "transport auto: " + found.message(), startMillis, startNanos));
            }
            use = settings.withTransport(found.transport());
            ChosenTransports.sayOnce(settings.server().endpointHttpUri(), found);
        }
        used = use;
        URI uri = use.server().stompUri();
        ConnectAttempt current = new ConnectAttempt(behaviour.newSilence(settings.name()));
        attempt = current;
        live = current;
        try {
            return new Start.Started(
                    current,
                    Handshake.open(shared, http, use, uri, current, sessionHandler),
                    uri,
                    startMillis,
                    startNanos);
        } catch (RuntimeException e) {
            // SockJS asks /info on this thread: a refused or unknown server fails here, not in the future.
            current.abandon();
            log.debug("{} connect failed", user, e);
            return new Start.FailedAtOnce(failed(use, uri, Failure.of(e), startMillis, startNanos));
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
     * another thread ({@link VirtualUser#disconnect}: an InterruptedException, as if the waiting thread had been
     * interrupted).
     */
    private ConnectStepResult settle(Start.Started started, Throwable waited) throws InterruptedException {
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
            log.debug("{} connect failed", user, waited.getCause());
            String error = user.stompError();
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
        user.connected(future.getNow(null));
        attempt = null;
        if (current.silence != null) {
            current.silence.arm(shared.scheduler(), behaviour.silentAfterMillis());
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
        return new InterruptedException(user + ": connect given up (the user was disconnected)");
    }
}
