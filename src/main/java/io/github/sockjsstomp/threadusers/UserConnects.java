package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.samples.Sample;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Connects a thread's users, one sample each: paced ({@link ConnectPacing}), then the login steps, the STOMP connect
 * and the subscribes, a sub-result per step; each outcome goes to {@link Reconnects}.
 */
public final class UserConnects implements ConnectsInFlight.Connects {

    private final List<VirtualUser> users;
    private final List<Template> subscribeTo;
    private final SubscribeHeaders subscribeHeaders;
    private final ConnectPacing pacing;
    private final Reconnects reconnects;

    UserConnects(
            List<VirtualUser> users,
            List<Template> subscribeTo,
            SubscribeHeaders subscribeHeaders,
            ConnectPacing pacing,
            Reconnects reconnects) {
        this.users = users;
        this.subscribeTo = subscribeTo;
        this.subscribeHeaders = subscribeHeaders;
        this.pacing = pacing;
        this.reconnects = reconnects;
    }

    /** Whether the users subscribe to anything: only then can a silence mean a wrong destination. */
    public boolean subscribes() {
        return !subscribeTo.isEmpty();
    }

    /** The subscriptions as given (with their placeholders), for messages to users. */
    public List<String> subscribeTo() {
        return subscribeTo.stream().map(Template::source).toList();
    }

    /**
     * Null when user {@code index} is connected; otherwise the sample of connecting it again, labelled
     * {@code <label> connect} or {@code <label> reconnect}, returned if it failed. Connects whether or not the
     * user is due: callers pick it with {@link UserTurns} first.
     */
    public SampleResult ensureConnected(int index, String label) throws InterruptedException {
        if (reconnects.isConnected(index)) {
            return null;
        }
        reconnects.lost(index);
        VirtualUser user = users.get(index);
        SampleResult reconnect = connect(index, label + (user.everConnected() ? " reconnect" : " connect"));
        return reconnect.isSuccessful() ? null : reconnect;
    }

    /** Login steps, STOMP connect and subscribes as one sample with a sub-result per step; paced, untimed wait. */
    public SampleResult connect(int index, String label) throws InterruptedException {
        pacing.awaitTurn();
        Attempt attempt = attempt(index, label);
        apply(attempt);
        return attempt.result();
    }

    /** Waits, outside any sample's time, until the next connect may start ({@code connectsPerSecond}). */
    @Override
    public void awaitTurn() throws InterruptedException {
        pacing.awaitTurn();
    }

    /** User {@code index}'s connect is under way: the turns pass over it until its outcome is applied. */
    @Override
    public void started(int index) {
        reconnects.lost(index);
        reconnects.connecting(index, true);
    }

    /**
     * User {@code index}'s connect as one timed sample, from its start to CONNECTED and its subscribes (or its
     * failure); the outcome is not applied yet: on whatever thread runs it, this touches only that user.
     */
    @Override
    public Attempt attempt(int index, String label) {
        VirtualUser user = users.get(index);
        long startNanos = System.nanoTime();
        SampleResult result = Sample.timed(label, r -> connectSteps(user, r));
        return new Attempt(index, result, startNanos, System.nanoTime());
    }

    @Override
    public boolean connectsWithoutWaiting(int index) {
        return users.get(index).connectsWithoutWaiting();
    }

    /**
     * {@link #attempt} with no thread waiting on it, where {@link #connectsWithoutWaiting}: the sample ends on the
     * thread that ends the connect's wait (the I/O thread that read CONNECTED, which also writes the SUBSCRIBEs),
     * touching only its user.
     */
    @Override
    public CompletableFuture<Attempt> attemptAsync(int index, String label) {
        VirtualUser user = users.get(index);
        long startNanos = System.nanoTime();
        SampleResult result = Sample.started(label);
        return user.connectAsync().handle((connect, failure) -> {
            Sample.completed(result, failure, r -> afterConnect(user, r, connect));
            return new Attempt(index, result, startNanos, System.nanoTime());
        });
    }

    /** Applies a connect's outcome to the thread's books: on the JMeter thread that owns {@link Reconnects}. */
    @Override
    public void apply(Attempt attempt) {
        reconnects.connecting(attempt.index(), false);
        SampleResult result = attempt.result();
        if (result.isSuccessful()) {
            reconnects.connected(attempt.index(), attempt.startNanos(), attempt.endNanos());
        } else if (!Sample.INTERRUPTED.equals(result.getResponseCode())) {
            reconnects.failed(
                    attempt.index(), result.getResponseCode(), result.getResponseMessage(), attempt.endNanos());
        }
    }

    @Override
    public void disconnect(int index) {
        users.get(index).disconnect();
    }

    static final String EXTENSIONS_HEADER = "Sec-WebSocket-Extensions";

    /** One user's connect, done: its sample and its times (for the capacity book and the backoff). */
    record Attempt(int index, SampleResult result, long startNanos, long endNanos) {}

    private void connectSteps(VirtualUser user, SampleResult result) throws InterruptedException {
        for (ConnectStepResult step : user.login()) {
            Sample.addStep(result, step);
            if (!step.ok()) {
                Sample.fail(result, step.code(), step.label() + " failed: " + step.message());
                return;
            }
        }
        afterConnect(user, result, user.connect());
    }

    /** The connect's step, then the subscribes. */
    private void afterConnect(VirtualUser user, SampleResult result, ConnectStepResult connect) {
        result.connectEnd();
        result.latencyEnd();
        Sample.addStep(result, connect);
        if (!connect.ok()) {
            Sample.fail(result, connect.code(), connect.message());
            return;
        }
        String agreed = user.agreedExtensions();
        if (agreed != null) {
            // what the server's 101 answered, as a browser's developer tools show it
            result.setResponseHeaders(EXTENSIONS_HEADER + ": " + agreed + "\n");
        }
        if (subscribeTo.isEmpty()) {
            // the connect test's every session: nothing to render
            Sample.ok(result, "Connected " + user);
            return;
        }
        Template.Values values = Template.of(user.settings());
        List<String> destinations =
                subscribeTo.stream().map(d -> d.render(values)).toList();
        Map<String, String> headers = subscribeHeaders.render(values);
        for (String destination : destinations) {
            ConnectStepResult subscribe = user.subscribe(destination, headers);
            Sample.addStep(result, subscribe);
            if (!subscribe.ok()) {
                Sample.fail(result, subscribe.code(), subscribe.message());
                return;
            }
        }
        Sample.ok(result, "Connected " + user + ", subscribed to " + destinations);
    }
}
