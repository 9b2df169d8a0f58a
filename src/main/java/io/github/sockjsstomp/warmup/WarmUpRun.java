package io.github.sockjsstomp.warmup;

import com.sun.management.OperatingSystemMXBean;
import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.client.user.UserBehaviour;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.ThrowawayTiming;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.UserTiming;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One warm-up over one transport: a virtual user sends timed messages to a {@link LoopbackStompPeer} through the
 * classes a run uses ({@code UserTiming}, a reply tracker, a timing log, the shared STOMP clients and their I/O
 * lanes), then waits for the answers and for the JIT to settle. Nothing goes to the server under test, and nothing
 * reaches a run's books or timing logs ({@link ThrowawayTiming}).
 *
 * <p>Bounded by a message count and a time limit, whichever comes first: the JIT compiles a method after some
 * thousands of calls, so a few thousand round trips are what it takes.
 */
final class WarmUpRun {

    static final long SETTLE_LIMIT_MILLIS = 500;
    private static final long SETTLE_QUIET_MILLIS = 30;
    /** Messages in flight: the sender, the I/O lane and the peer then overlap, as under load. */
    private static final int WINDOW = 32;

    private static final String DESTINATION = "/app/warm-up";
    private static final Template PAYLOAD = Template.parse(
            "{\"id\":\"{{msgId}}\",\"seq\":{{seq}},\"user\":\"{{user}}\",\"text\":\"hello\"}", Template.PAYLOAD);

    /** What went round so far; kept when a send fails half-way. */
    private static final class Tally {
        long sent;
        long answered;
        String problem;
    }

    private WarmUpRun() {}

    /** One warm-up over {@code transport}, whatever ran before. */
    static WarmUp.Result run(
            SharedStompClients shared, Transport transport, long heartbeatMillis, int messages, long limitMillis) {
        long startNanos = System.nanoTime();
        long startCpu = processCpuNanos();
        long deadline = startNanos + TimeUnit.MILLISECONDS.toNanos(limitMillis);
        Tally tally = new Tally();
        try (ThrowawayTiming timing = new ThrowawayTiming();
                LoopbackStompPeer peer = new LoopbackStompPeer()) {
            VirtualUser user = new VirtualUser(
                    shared,
                    settings(peer.port(), transport, heartbeatMillis),
                    UserBehaviour.PLAIN,
                    new TransportProbe(shared.httpClient(), (int) limitMillis));
            try {
                roundTrips(user, timing, messages, deadline, tally);
            } finally {
                user.close();
            }
        } catch (IOException | SendFailedException e) {
            tally.problem = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (Thread.currentThread().isInterrupted()) {
            tally.problem = "interrupted (the test was stopped)";
        }
        return new WarmUp.Result(
                transport,
                tally.sent,
                tally.answered,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                TimeUnit.NANOSECONDS.toMillis(processCpuNanos() - startCpu),
                tally.problem);
    }

    /** Connects, sends with {@link #WINDOW} messages in flight, then waits for the answers and the JIT. */
    private static void roundTrips(VirtualUser user, ThrowawayTiming timing, int messages, long deadline, Tally tally)
            throws InterruptedException, SendFailedException {
        ConnectStepResult connected = user.connect();
        ConnectStepResult subscribed = connected.ok() ? user.subscribe("/queue/warm-up") : connected;
        if (!subscribed.ok()) {
            tally.problem = subscribed.message();
            return;
        }
        UserTiming sender = timing.attach(user, options());
        while (tally.sent < messages && going(deadline)) {
            while (tally.sent - user.messagesReceived() >= WINDOW && going(deadline)) {
                LockSupport.parkNanos(20_000);
            }
            sender.send(DESTINATION, Map.of(), PAYLOAD);
            tally.sent++;
        }
        tally.answered = awaitAnswers(timing, tally.sent, deadline);
        settle(deadline + TimeUnit.MILLISECONDS.toNanos(SETTLE_LIMIT_MILLIS));
    }

    /** The tracker's count of answers, not the user's of replies: a reply is received before it is matched. */
    private static long awaitAnswers(ThrowawayTiming timing, long sent, long deadline) {
        long answered;
        while ((answered = timing.answered()) < sent && going(deadline)) {
            LockSupport.parkNanos(100_000);
        }
        return answered;
    }

    /**
     * Waits until the JIT has finished what the warm-up queued (no compile completed for a while), so that its
     * compiler threads do not compete with the test's first messages for the cores.
     */
    private static void settle(long deadlineNanos) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long before = jit.getTotalCompilationTime();
        while (going(deadlineNanos)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(SETTLE_QUIET_MILLIS));
            long now = jit.getTotalCompilationTime();
            if (now == before) {
                return;
            }
            before = now;
        }
    }

    /** Until the time limit, or until the test is stopped (JMeter interrupts its threads). */
    private static boolean going(long deadlineNanos) {
        return System.nanoTime() - deadlineNanos < 0 && !Thread.currentThread().isInterrupted();
    }

    /** Like send.jmx's: the id in a header and in the body, one reply per message. */
    private static TimingOptions options() {
        return new TimingOptions(
                5_000, 1, SendMode.FIRE_AND_FORGET, TimingOptions.DEFAULT_ID_HEADER, null, true, false);
    }

    /** The run's heart-beat: with it on, the session's send and receive paths take other branches. */
    private static UserSettings settings(int port, Transport transport, long heartbeatMillis) {
        return new UserSettings(
                "warm-up",
                1,
                1,
                UserSettings.Credentials.NONE,
                new UserSettings.Server("http", "127.0.0.1", port, "/warm-up", transport),
                WebLogin.NONE,
                new UserSettings.ConnectOptions(Map.of(), heartbeatMillis, 5_000));
    }

    /** All threads' CPU: the warm-up's cost is on the sender, the I/O lane, the peer and the JIT's compilers. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
