package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.user.ReconnectBackoff;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.properties.ClientProperties;
import io.github.sockjsstomp.samples.RunReports;
import io.github.sockjsstomp.timing.CapacityBook;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether each of a thread's users is connected and, when it is not, when it may connect again: its
 * {@link ReconnectBackoff} schedule. What their connects and losses mean beyond the thread goes from here to the run
 * (the capacity book's sessions held, connects and failures) and to {@link Outages} (a server unreachable, and
 * back).
 *
 * <p>Losses are seen, not told: a session ends on an I/O thread, while a schedule belongs to the JMeter thread, so the
 * thread looks ({@link #isConnected}) and, finding a user down, notes the loss ({@link #lost}). Not thread-safe: one
 * JMeter thread owns it.
 */
public final class Reconnects implements UserTurns.States {

    private static final Logger log = LoggerFactory.getLogger(Reconnects.class);

    private final List<VirtualUser> users;
    private final ReconnectBackoff backoff;
    /** When each user may connect next; by index, as {@link #users}. */
    private final List<ReconnectBackoff.Schedule> schedules;

    private final Outages.Server server;
    /** The run's sessions held, connects and silent sessions. */
    private final CapacityBook capacity;
    /** Users whose lost session a sample said already; a successful connect clears the bit. */
    private final BitSet lossSaid = new BitSet();
    /** Users whose connect is under way ({@link ConnectsInFlight}): not to be started again until it is done. */
    private final BitSet connecting = new BitSet();

    private boolean closed;

    Reconnects(List<VirtualUser> users, CapacityBook capacity) {
        this.users = users;
        this.capacity = capacity;
        this.backoff = ClientProperties.reconnectBackoff(null);
        this.schedules = users.stream().map(u -> backoff.schedule()).toList();
        this.server = users.isEmpty()
                ? null
                : Outages.join(
                        users.get(0).settings().server().stompUri().toString(),
                        backoff.minMillis(),
                        backoff.maxMillis());
    }

    /**
     * Whether user {@code index}'s session is open. A user whose session went silent counts as connected, whatever
     * became of it: it is never reconnected, and its end is its {@code expired} sample, not a loss.
     */
    @Override
    public boolean isConnected(int index) {
        VirtualUser user = users.get(index);
        return user.isConnected() || SilentSessions.wentSilent(user);
    }

    /**
     * User {@code index} was seen not connected: if its session was up until now, its backoff starts and the capacity
     * book stops counting it; otherwise (a loss already noted, a failed connect) nothing changes.
     */
    @Override
    public void lost(int index) {
        ReconnectBackoff.Schedule schedule = schedules.get(index);
        if (schedule.isUp()) {
            boolean wasWaiting = schedule.isWaiting();
            schedule.lost(System.nanoTime());
            countWaiting(wasWaiting, schedule);
            capacity.ended();
        }
    }

    @Override
    public boolean isConnecting(int index) {
        return connecting.get(index);
    }

    /** User {@code index}'s connect started ({@code true}) or its outcome was taken ({@code false}). */
    void connecting(int index, boolean underWay) {
        connecting.set(index, underWay);
    }

    /** Whether user {@code index}'s backoff lets it connect at {@code nowNanos}; a first connect always may. */
    @Override
    public boolean isDue(int index, long nowNanos) {
        return schedules.get(index).isDue(nowNanos);
    }

    /** When user {@code index} may connect again; meaningful only while it waits ({@link #isDue} false). */
    @Override
    public long dueNanos(int index) {
        return schedules.get(index).dueNanos();
    }

    /** The longest reconnect delay: the most a wait for a user's backoff can last. */
    @Override
    public long longestDelayNanos() {
        return TimeUnit.MILLISECONDS.toNanos(backoff.maxMillis());
    }

    /** Whether user {@code index}, seen not connected, lost a session that no sample said yet. */
    @Override
    public boolean hasUnsaidLoss(int index) {
        return users.get(index).everConnected() && !lossSaid.get(index);
    }

    /** A sample said user {@code index}'s loss: {@link #hasUnsaidLoss} is false until it connects and loses again. */
    public void lossSaid(int index) {
        lossSaid.set(index);
    }

    /** User {@code index}'s connect, started at {@code startNanos}, succeeded at {@code nowNanos}. */
    void connected(int index, long startNanos, long nowNanos) {
        ReconnectBackoff.Schedule schedule = schedules.get(index);
        boolean wasWaiting = schedule.isWaiting();
        capacity.connected(startNanos, nowNanos);
        sayAgreed(users.get(index));
        lossSaid.clear(index);
        schedule.connected(nowNanos);
        countWaiting(wasWaiting, schedule);
        if (server != null) {
            server.connected(nowNanos);
        }
    }

    /** User {@code index}'s connect failed at {@code nowNanos} with {@code code}: its next one waits longer. */
    void failed(int index, String code, String message, long nowNanos) {
        ReconnectBackoff.Schedule schedule = schedules.get(index);
        boolean wasWaiting = schedule.isWaiting();
        sayFailedConnect(code + ": " + message);
        schedule.failed(nowNanos);
        countWaiting(wasWaiting, schedule);
        if (server != null) {
            server.failed(code, schedule.failures(), nowNanos);
        }
    }

    /**
     * What the server agreed to on the WebSocket (compression or none) is said once per answer in the run, on the
     * console and in jmeter.log: whether the server under test works as browsers make it work is the first thing to
     * know of a capacity figure. The run's end counts the sessions of each answer.
     */
    private void sayAgreed(VirtualUser user) {
        String agreed = user.agreedExtensions();
        if (agreed != null && capacity.agreed(agreed)) {
            UserSettings.Server server = user.settings().server();
            String line = "WebSocket sessions to " + server.endpointHttpUri() + " agreed on " + agreed + " (offered: "
                    + user.settings().connect().compression() + "); the run's end counts the sessions of each answer";
            log.info(line);
            if (RunReports.consoleSeen()) {
                System.out.println(line);
            }
        }
    }

    /**
     * A failed connect is one line in jmeter.log per cause, the first time it is seen; the run's end says how many
     * failed for each cause. A thousand users refused alike are one line, not a thousand stack traces.
     */
    private void sayFailedConnect(String cause) {
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

    /** The users close: the server stops counting those still waiting to reconnect. Once; later calls do nothing. */
    void close() {
        if (server != null && !closed) {
            server.release((int) schedules.stream()
                    .filter(ReconnectBackoff.Schedule::isWaiting)
                    .count());
        }
        closed = true;
    }

    @Override
    public String toString() {
        return "Reconnects[" + users.size() + " users, " + backoff + "]";
    }
}
