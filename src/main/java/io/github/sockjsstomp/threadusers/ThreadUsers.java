package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.ReconnectBackoff;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.timing.CapacityBook;
import java.util.List;
import java.util.function.Consumer;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread's users: the virtual users one JMeter thread owns, with what the thread keeps about them: how they
 * connect ({@link UserConnects}), when each may connect again ({@link Reconnects}), which goes next
 * ({@link UserTurns}) and, once a sender attached it, how their messages are timed ({@link ThreadTiming}). The
 * session sampler keeps them in the thread's JMeter variables so that a send sampler after it in the same thread
 * sends on them: JMeter evaluates and copies every argument of a Java Request on every sample, and connection
 * settings on a sampler run once per user cost nothing per message.
 *
 * <p>Reconnects back off ({@link ReconnectBackoff}): after a failed connect, or a session lost before it stayed
 * up, a user's next connect is due only after a delay that doubles up to {@code sockjsstomp.reconnectMaxMillis};
 * a user's first connect is due at once. A sampler whose users are all down and none due waits for the earliest
 * ({@link UserTurns#awaitNextDue}) outside any sample's time, so an outage costs a few attempts per user, not a
 * flood of rows; {@link Outages} says on the console once that the server is unreachable, and once that it is back.
 */
public final class ThreadUsers {

    private static final Logger log = LoggerFactory.getLogger(ThreadUsers.class);
    private static final String VARIABLE = "sockjsstomp.threadUsers";

    private final List<VirtualUser> users;
    private final Reconnects reconnects;
    private final UserConnects connects;
    private final ConnectsInFlight inFlight;
    private final UserTurns turns;
    private final ThreadTiming timing;

    /** @param connectsInFlight how many of their connects the session sampler has under way at once, 1 or more */
    public ThreadUsers(
            List<VirtualUser> users,
            List<Template> subscribeTo,
            SubscribeHeaders subscribeHeaders,
            double connectsPerSecond,
            int connectsInFlight,
            CapacityBook capacity) {
        this.users = List.copyOf(users);
        this.reconnects = new Reconnects(this.users, capacity);
        this.connects = new UserConnects(
                this.users, subscribeTo, subscribeHeaders, new ConnectPacing(connectsPerSecond), reconnects);
        // never more lanes than users: a thread of one user connects it on the JMeter thread, as before lanes
        this.inFlight = new ConnectsInFlight(
                connects,
                Math.max(1, Math.min(connectsInFlight, this.users.size())),
                longestConnectMillis(subscribeTo.size()));
        this.turns = new UserTurns(this.users.size(), reconnects);
        this.timing = new ThreadTiming(this.users);
    }

    /** Makes these the users of the current thread; a later session sampler's replace them. */
    public void publish() {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.putObject(VARIABLE, this);
        }
    }

    /** The users a session sampler of this thread opened, or null. */
    public static ThreadUsers current() {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        return variables == null ? null : variables.getObject(VARIABLE) instanceof ThreadUsers u ? u : null;
    }

    public List<VirtualUser> users() {
        return users;
    }

    public int size() {
        return users.size();
    }

    public Reconnects reconnects() {
        return reconnects;
    }

    public UserConnects connects() {
        return connects;
    }

    public ConnectsInFlight inFlight() {
        return inFlight;
    }

    public UserTurns turns() {
        return turns;
    }

    public ThreadTiming timing() {
        return timing;
    }

    /** Ends every session and connect under way now (JMeter's Stop); the next sample connects again. */
    public void disconnect() {
        inFlight.cancel();
        eachUser(VirtualUser::disconnect, "Disconnecting");
    }

    /**
     * Closes every user: the connects under way given up first (their users disconnected) and their lanes awaited
     * (bounded), so that no session is left open when JMeter's JVM exits. Must not throw: JMeter tears every
     * sampler down in one loop.
     */
    public void close() {
        disconnect();
        inFlight.close();
        reconnects.close();
        eachUser(VirtualUser::close, "Closing");
    }

    private void eachUser(Consumer<VirtualUser> action, String what) {
        for (VirtualUser user : users) {
            try {
                action.accept(user);
            } catch (RuntimeException e) {
                log.warn("{} {} failed", what, user, e);
            }
        }
    }

    /**
     * The most one connect can take: each of its steps (the login steps, the transport probe, the connect, the
     * subscribes) ends within the connect timeout.
     */
    private long longestConnectMillis(int subscribes) {
        long timeout = users.isEmpty() ? 0 : users.get(0).settings().connect().timeoutMillis();
        int loginSteps = 4;
        return timeout * (loginSteps + 2 + subscribes) + 1000;
    }

    @Override
    public String toString() {
        return "ThreadUsers[" + (users.size() == 1 ? users.get(0) : users.size() + " users") + "]";
    }
}
