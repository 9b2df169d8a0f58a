package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.StepResult;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.ReconnectBackoff;
import io.github.sockjsstomp.client.user.Silence;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.timing.CapacityBook;
import io.github.sockjsstomp.timing.ReplyTracker;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.UnsaidRefusals;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread's users: the virtual users one JMeter thread owns, how they connect (paced to
 * {@code connectsPerSecond}, one sample each, a sub-result per step) and, once a sender attached it, how
 * their messages are timed. The session sampler keeps them in the thread's JMeter variables so that a send
 * sampler after it in the same thread sends on them: JMeter evaluates and copies every argument of a Java
 * Request on every sample, and connection settings on a sampler run once per user cost nothing per message.
 *
 * <p>Reconnects back off ({@link ReconnectBackoff}): after a failed connect, or a session lost before it stayed
 * up, a user's next connect is due only after a delay that doubles up to {@code sockjsstomp.reconnectMaxMillis};
 * a user's first connect is due at once. A sampler whose users are all down and none due waits for the earliest
 * ({@link #awaitNextRetry}) outside any sample's time, so an outage costs a few attempts per user, not a flood
 * of rows; {@link Outages} says on the console once that the server is unreachable, and once that it is back.
 */
final class ThreadUsers {

    private static final Logger log = LoggerFactory.getLogger(ThreadUsers.class);
    private static final String VARIABLE = "sockjsstomp.threadUsers";

    private final List<VirtualUser> users;
    private final List<Template> subscribeTo;
    private final ReconnectBackoff backoff;
    /** When each user may connect next; by index, as {@link #users}. */
    private final List<ReconnectBackoff.Schedule> schedules;

    private final Outages.Server server;
    /** The run's sessions held, connects and silent sessions. */
    private final CapacityBook capacity;

    private final long connectIntervalNanos;
    private long nextConnectNanos = System.nanoTime();
    /** Users whose lost session was reported as a sample already; a successful connect clears the bit. */
    private final BitSet lossReported = new BitSet();

    private int next;
    private String timedBy;
    private TimingOptions timedWith;
    private TimingSink timedInto;
    private List<UserTiming> timings;
    /** The server's refusals on these users' sessions that no sample said yet. */
    private final UnsaidRefusals refusals = new UnsaidRefusals();

    private boolean closed;

    ThreadUsers(List<VirtualUser> users, List<Template> subscribeTo, double connectsPerSecond, CapacityBook capacity) {
        this.users = List.copyOf(users);
        this.capacity = capacity;
        this.subscribeTo = subscribeTo;
        this.backoff = ClientProperties.reconnectBackoff(null);
        this.schedules = this.users.stream().map(u -> backoff.schedule()).toList();
        this.server = this.users.isEmpty()
                ? null
                : Outages.join(
                        this.users.get(0).settings().stompUri().toString(), backoff.minMillis(), backoff.maxMillis());
        this.connectIntervalNanos =
                connectsPerSecond > 0 ? (long) (TimeUnit.SECONDS.toNanos(1) / connectsPerSecond) : 0;
    }

    /** Makes these the users of the current thread; a later session sampler's replace them. */
    void publish() {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.putObject(VARIABLE, this);
        }
    }

    /** The users a session sampler of this thread opened, or null. */
    static ThreadUsers current() {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        return variables == null ? null : variables.getObject(VARIABLE) instanceof ThreadUsers u ? u : null;
    }

    /** Whether the users subscribe to anything: only then can a silence mean a wrong destination. */
    boolean subscribes() {
        return !subscribeTo.isEmpty();
    }

    /** The subscriptions as given (with their placeholders), for messages to users. */
    List<String> subscribeTo() {
        return subscribeTo.stream().map(Template::source).toList();
    }

    List<VirtualUser> users() {
        return users;
    }

    int size() {
        return users.size();
    }

    /** ERROR frames on these users' open sessions that no sample of the thread said yet. */
    UnsaidRefusals refusals() {
        return refusals;
    }

    /** The next user in turn, round-robin. */
    int nextIndex() {
        int index = next;
        next = next + 1 == users.size() ? 0 : next + 1;
        return index;
    }

    /**
     * Times what these users send, the way {@code sampler} says, and returns the timing of each user in order.
     * Timing attaches once; a second sender on the same users must time alike.
     *
     * @throws IllegalStateException saying why not: two senders that time differently cannot share users
     */
    List<UserTiming> timing(String sampler, TimingOptions options, TimingSink sink, ReplyTracker tracker) {
        if (timings == null) {
            timedBy = sampler;
            timedWith = options;
            timedInto = sink;
            timings = users.stream()
                    .map(u -> UserTiming.attach(u, tracker, options, sink, refusals))
                    .toList();
        } else if (!options.sameAs(timedWith) || sink != timedInto) {
            throw new IllegalStateException("'" + sampler + "' and '" + timedBy + "' send on the same thread's "
                    + "users with different mode, replyTimeoutMillis, repliesPerMessage, idHeader, replyIdPattern "
                    + "or timingLog; give them the same");
        }
        return timings;
    }

    /**
     * Null when user {@code index} is connected; otherwise the sample of connecting it again, labelled
     * {@code <label> connect} or {@code <label> reconnect}, returned if it failed. Connects whether or not the
     * user is due: callers ask {@link #isDue} first.
     */
    SampleResult ensureConnected(int index, String label) throws InterruptedException {
        VirtualUser user = users.get(index);
        if (isConnected(index)) {
            return null;
        }
        SampleResult reconnect = connect(index, label + (user.everConnected() ? " reconnect" : " connect"));
        return reconnect.isSuccessful() ? null : reconnect;
    }

    /**
     * Whether user {@code index} is connected; a loss seen here for the first time starts its backoff. A user
     * whose session went silent counts as connected, whatever became of it: it is never reconnected, and its
     * end is its {@code expired} sample ({@link #takeExpired}), not a loss.
     */
    boolean isConnected(int index) {
        VirtualUser user = users.get(index);
        if (user.isConnected() || wentSilent(user)) {
            return true;
        }
        ReconnectBackoff.Schedule schedule = schedules.get(index);
        if (schedule.isUp()) {
            boolean wasWaiting = schedule.isWaiting();
            schedule.lost(System.nanoTime());
            countWaiting(wasWaiting, schedule);
            capacity.ended();
        }
        return false;
    }

    private static boolean wentSilent(VirtualUser user) {
        Silence silence = user.silence();
        return silence != null && silence.wentSilent();
    }

    /** The users {@link SilentSessions#picks} go silent {@code afterMillis} after each of their connects. */
    void goSilent(double share, long afterMillis) {
        for (VirtualUser user : users) {
            if (SilentSessions.picks(user.settings().number(), share)) {
                user.goSilentAfter(afterMillis, capacity);
            }
        }
    }

    /** How many of these users went silent. */
    int silentCount() {
        return (int) users.stream().filter(ThreadUsers::wentSilent).count();
    }

    /** A silent session the server closed and no sample reported yet, taken for its sample; null if none. */
    Silence takeExpired() {
        for (VirtualUser user : users) {
            Silence silence = user.silence();
            if (silence != null && silence.expired() && silence.takeReport()) {
                return silence;
            }
        }
        return null;
    }

    /** Whether user {@code index}, not connected, may connect now: its first connect, or its backoff is over. */
    boolean isDue(int index) {
        return !isConnected(index) && schedules.get(index).isDue(System.nanoTime());
    }

    /** The first user from {@code from} on, round-robin, that is connected; -1 if none is. */
    int nextConnected(int from) {
        int count = users.size();
        for (int i = 0; i < count; i++) {
            int index = (from + i) % count;
            if (isConnected(index)) {
                return index;
            }
        }
        return -1;
    }

    /** Whether user {@code index} lost its session and no sample said so yet; true once per loss. */
    boolean takeUnreportedLoss(int index) {
        VirtualUser user = users.get(index);
        if (isConnected(index) || !user.everConnected() || lossReported.get(index)) {
            return false;
        }
        lossReported.set(index);
        return true;
    }

    /**
     * Waits, outside any sample's time, until the user not connected whose connect is due first may connect,
     * and returns its index; -1 (at once) when every user is connected. The wait is bounded by the longest
     * reconnect delay, and JMeter's Stop ends it (the sampler interrupts its thread).
     */
    int awaitNextRetry() throws InterruptedException {
        int earliest = -1;
        long earliestNanos = 0;
        long now = System.nanoTime();
        for (int index = 0; index < users.size(); index++) {
            if (isConnected(index)) {
                continue;
            }
            ReconnectBackoff.Schedule schedule = schedules.get(index);
            if (schedule.isDue(now)) {
                return index;
            }
            if (earliest < 0 || schedule.dueNanos() - earliestNanos < 0) {
                earliest = index;
                earliestNanos = schedule.dueNanos();
            }
        }
        if (earliest >= 0) {
            long longest = TimeUnit.MILLISECONDS.toNanos(backoff.maxMillis());
            TimeUnit.NANOSECONDS.sleep(Math.min(longest, earliestNanos - System.nanoTime()));
        }
        return earliest;
    }

    /** Login steps, STOMP connect and subscribes as one sample with a sub-result per step; paced, untimed wait. */
    SampleResult connect(int index, String label) throws InterruptedException {
        paceConnect();
        VirtualUser user = users.get(index);
        long startNanos = System.nanoTime();
        SampleResult result = Sample.timed(label, r -> connectSteps(user, r));
        ReconnectBackoff.Schedule schedule = schedules.get(index);
        boolean wasWaiting = schedule.isWaiting();
        long now = System.nanoTime();
        if (result.isSuccessful()) {
            capacity.connected(startNanos, now);
            lossReported.clear(index);
            schedule.connected(now);
            countWaiting(wasWaiting, schedule);
            if (server != null) {
                server.connected(now);
            }
        } else if (!Sample.INTERRUPTED.equals(result.getResponseCode())) {
            sayFailedConnect(result);
            schedule.failed(now);
            countWaiting(wasWaiting, schedule);
            if (server != null) {
                server.failed(result.getResponseCode(), schedule.failures(), now);
            }
        }
        return result;
    }

    /**
     * A failed connect is one line in jmeter.log per cause, the first time it is seen; the run's end says how many
     * failed for each cause. A thousand users refused alike are one line, not a thousand stack traces.
     */
    private void sayFailedConnect(SampleResult result) {
        String cause = result.getResponseCode() + ": " + result.getResponseMessage();
        if (capacity.connectFailed(cause)) {
            log.warn(
                    "Connect failed ({}); further connects that fail so are counted, the counts said at the end of "
                            + "the run (each failure's stack trace: {} at DEBUG)",
                    cause,
                    VirtualUser.class.getName());
        }
    }

    private void countWaiting(boolean wasWaiting, ReconnectBackoff.Schedule schedule) {
        if (server != null && wasWaiting != schedule.isWaiting()) {
            server.waiting(schedule.isWaiting() ? 1 : -1);
        }
    }

    private void connectSteps(VirtualUser user, SampleResult result) throws InterruptedException {
        for (StepResult step : user.login()) {
            Sample.addStep(result, step);
            if (!step.ok()) {
                Sample.fail(result, step.code(), step.label() + " failed: " + step.message());
                return;
            }
        }
        StepResult connect = user.connect();
        result.connectEnd();
        result.latencyEnd();
        Sample.addStep(result, connect);
        if (!connect.ok()) {
            Sample.fail(result, connect.code(), connect.message());
            return;
        }
        List<String> destinations = subscribeTo.stream()
                .map(d -> d.render(Template.of(user.settings())))
                .toList();
        for (String destination : destinations) {
            StepResult subscribe = user.subscribe(destination);
            Sample.addStep(result, subscribe);
            if (!subscribe.ok()) {
                Sample.fail(result, subscribe.code(), subscribe.message());
                return;
            }
        }
        Sample.ok(result, "Connected " + user + (destinations.isEmpty() ? "" : ", subscribed to " + destinations));
    }

    /** Holds connects to {@code connectsPerSecond}; the wait is outside any sample's time. */
    private void paceConnect() throws InterruptedException {
        if (connectIntervalNanos == 0) {
            return;
        }
        long wait = nextConnectNanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        nextConnectNanos = Math.max(nextConnectNanos, System.nanoTime() - connectIntervalNanos) + connectIntervalNanos;
    }

    /** Ends every session and connect under way now (JMeter's Stop); the next sample connects again. */
    void disconnect() {
        users.forEach(VirtualUser::disconnect);
    }

    /** Closes every user. Must not throw: JMeter tears every sampler down in one loop. */
    void close() {
        if (server != null && !closed) {
            server.release((int) schedules.stream()
                    .filter(ReconnectBackoff.Schedule::isWaiting)
                    .count());
        }
        closed = true;
        for (VirtualUser user : users) {
            try {
                user.close();
            } catch (RuntimeException e) {
                log.warn("Closing {} failed", user, e);
            }
        }
    }

    @Override
    public String toString() {
        return "ThreadUsers[" + (users.size() == 1 ? users.get(0) : users.size() + " users") + "]";
    }
}
