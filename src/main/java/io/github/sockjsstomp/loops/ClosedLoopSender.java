package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.threadusers.ConnectsInFlight;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.MessageTiming;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * The send sampler's closed loop ({@code loop=closed}, with await-reply or await-receipt): each of the thread's
 * users sends, waits for its message's outcome (its reply, its receipt, or LOST at {@code replyTimeoutMillis}),
 * thinks for {@code pauseMillis} and sends again, and the JMeter thread drives them all ({@link UserLoops})
 * without blocking on any one. A sample gathers the round trips the thread's users finished answered within
 * {@code sampleMillis}: its count is those round trips; its time is its span less the waits in it (JMeter's idle
 * time, as the scheduled sender's sleeps are), the thread's own work: JMeter takes a row's elapsed time as its span
 * and divides it by its count for a mean, so neither a sum nor a mean of latencies would read right there. Each
 * round trip's latency is in the timing log and, with {@code replySamples}, a reply row of its own; the sample's
 * message gives their mean and worst. A round trip LOST or FAILED is a failed sample of its own with its code
 * ({@link RoundTrips}), so that JMeter's error count is the messages not answered.
 *
 * <p>Which thread sends: always this JMeter thread, also when no pause is due. The thread that settles an outcome is
 * an I/O thread (or the expiry sweeper): a SEND written there is a blocking write on the thread that must read the
 * replies that free the socket (Tomcat's blocking send, and {@code SerializedSession}'s wait for a session busy with
 * a heart-beat), and the user's timing (its sequence, its last message) is its JMeter thread's alone. The I/O thread
 * only queues the user and wakes this thread when it sleeps ({@link UserLoops#settled}).
 *
 * <p>A user whose session is gone sends nothing until it is connected again: it reconnects on a connect lane of the
 * thread's ({@link ConnectsInFlight}, its backoff kept); a connect that fails is a sample of its own. Its message in
 * flight was FAILED when the session went (the books count it), its next round trip starts once it is back.
 */
public final class ClosedLoopSender implements Sender {

    /** The least time before the end at which a sample still ends on its own (see {@link #endsSoon}). */
    private static final long END_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final SendingSampler sampler;
    private final long sampleNanos;
    private final long pollNanos;
    private final long pauseMillis;
    private UserLoops loops;
    /** Each user's outcome hook, made once with the loops: a message's costs no lambda. */
    private Runnable[] hooks;
    /** Connect failures and refusals, each a sample of its own, returned before the next round trips. */
    private final Queue<SenderRow> pending = new ArrayDeque<>();
    /** A stepped run's users steps: how many of the thread's users loop now (null: no steps followed). */
    private StepsFollower steps;

    /** How many of the thread's users the stepped run lets loop now; -1 before a step is followed: all of them. */
    private int looping = -1;

    /**
     * Each user's destination rendered from {@link #destinationsOf}: a destination's placeholders are the user's
     * (never the message's), so it is rendered once per user while the plan's text stays the same.
     */
    private String[] destinations;

    private Template destinationsOf;

    /**
     * The thread's end time only: the loop's own times are {@link System#nanoTime()}'s, the clock its messages are
     * stamped on (an answer's arrival, a reply's deadline) and its users park on ({@link UserLoops#await}).
     */
    private final SenderClock clock;

    public ClosedLoopSender(SendingSampler sampler, long pauseMillis, long sampleMillis, long tickMillis) {
        this(sampler, pauseMillis, sampleMillis, tickMillis, SenderClock.JMETER);
    }

    ClosedLoopSender(SendingSampler sampler, long pauseMillis, long sampleMillis, long tickMillis, SenderClock clock) {
        this.sampler = sampler;
        this.sampleNanos = TimeUnit.MILLISECONDS.toNanos(sampleMillis);
        this.pollNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, tickMillis));
        this.pauseMillis = pauseMillis;
        this.clock = clock;
    }

    /**
     * Follows a stepped run's looping-users steps: a closed loop's offered load is its users, so a step lets its
     * share of the thread's users loop and the others wait connected, idle (they connected before the steps began:
     * connects during a step would put their work into its latencies).
     */
    public void follow(StepsFollower follower) {
        this.steps = follower;
    }

    /**
     * The closed loop's sample. At the thread's end time no user sends again, and the sample waits for the messages
     * in flight (each ends by its deadline), as a blocking sample waits for its reply: every message is in a sample.
     * Not reported (ignored) when nothing finished: JMeter's Stop, or the end time with nothing in flight.
     */
    @Override
    public SenderRow sample(JavaSamplerContext context, String label) {
        if (!pending.isEmpty()) {
            return pending.poll();
        }
        SampleResult refused = SenderChecks.refusedRow(sampler.users(), label);
        if (refused != null) {
            return SenderRow.other(refused);
        }
        if (Thread.currentThread().isInterrupted() || endPassed() && (loops == null || loops.inFlight() == 0)) {
            return notReported();
        }
        SenderChecks.Read read = SenderChecks.message(sampler, context, label);
        if (read.configError() != null) {
            return SenderRow.other(read.configError());
        }
        MessageParts message = read.message();
        UserLoops loop = loops();
        loop.start(System.nanoTime());
        RoundTrips trips = new RoundTrips(label, pending);
        SampleResult result = Sample.timed(label, r -> runSample(r, label, message, trips));
        Sample.idle(result, trips.idleNanos);
        if (trips.answered == 0) {
            if (trips.stopped) {
                return SenderRow.other(stopped(label, result));
            }
            return pending.isEmpty() ? notReported() : pending.poll();
        }
        trips.report(result);
        return new SenderRow(result, true);
    }

    /** JMeter's Stop came while the thread's users had nothing answered in the sample: it says so, as a wait would. */
    private SampleResult stopped(String label, SampleResult result) {
        Sample.fail(
                result,
                Sample.INTERRUPTED,
                "Interrupted (JMeter's Stop) with " + loops.inFlight()
                        + " messages in flight: the end of the test settles them");
        result.setSampleLabel(label);
        return result;
    }

    private UserLoops loops() {
        if (loops == null) {
            UserLoops made = new UserLoops(sampler.users().size(), pauseMillis, Thread.currentThread());
            hooks = new Runnable[made.size()];
            for (int i = 0; i < hooks.length; i++) {
                int user = i;
                hooks[i] = () -> made.settled(user);
            }
            loops = made;
        }
        return loops;
    }

    /**
     * Takes outcomes, sends what is due, starts the reconnects due, and sleeps until the next of these, until the
     * sample has round trips and its {@code sampleMillis} are over, a connect failed, the thread's end time or Stop.
     */
    private void runSample(SampleResult result, String label, MessageParts message, RoundTrips trips) {
        long until = System.nanoTime() + sampleNanos;
        while (true) {
            long now = System.nanoTime();
            boolean ending = endPassed();
            takeOutcomes(trips);
            takeConnects();
            if (ending) {
                if (loops.inFlight() == 0) {
                    return;
                }
            } else {
                followSteps();
                sendDue(now, result, message, trips);
                reconnectDown(label, now);
                now = System.nanoTime();
                if (trips.answered > 0 && now - until >= 0 && !endsSoon() || !pending.isEmpty()) {
                    return;
                }
                if (looping == 0 && loops.inFlight() == 0) {
                    // no user may loop (before the steps, or after them) and none is in flight: the sample ends
                    // at the next step's change, so JMeter sees the steps' shutdown between samples
                    idle(trips, now + steps.nanosToNextChange());
                    return;
                }
            }
            long wake = ending ? now + sampleNanos : nextWake(now, until, trips);
            long from = System.nanoTime();
            try {
                loops.await(wake);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // JMeter's Stop: what is in flight goes to the end-of-test drain
                trips.stopped = true;
                return;
            } finally {
                trips.idleNanos += System.nanoTime() - from;
            }
        }
    }

    /**
     * The next user due, the sample's end once it has round trips, a look at reconnects, the thread's end time. With
     * a pause, outcomes do not wake the thread: it looks at them every {@code tickMillis} while messages are in
     * flight, and never wakes sooner than that, so the users due within a tick share one wake-up and each pause is
     * kept to within a tick (longer, never shorter).
     */
    private long nextWake(long now, long until, RoundTrips trips) {
        long wake = Math.min(loops.nextDueNanos(now), trips.answered > 0 ? until : Long.MAX_VALUE);
        boolean poll = sampler.users().inFlight().count() > 0
                || loops.downCount() > 0
                || !loops.outcomesWake() && loops.inFlight() > 0;
        if (poll) {
            wake = Math.min(wake, now + pollNanos); // a lane's connect, a backoff, outcomes: looked at each poll
        }
        if (!loops.outcomesWake()) {
            wake = Math.max(wake, now + pollNanos);
        }
        if (looping >= 0) {
            wake = Math.min(wake, now + steps.nanosToNextChange()); // the next step lets more users loop
        }
        return Math.min(wake, endNanos(now));
    }

    private void idle(RoundTrips trips, long untilNanos) {
        long from = System.nanoTime();
        try {
            loops.await(untilNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            trips.stopped = true;
        } finally {
            trips.idleNanos += System.nanoTime() - from;
        }
    }

    private void followSteps() {
        if (steps == null || !steps.steps(StepKind.LOOPING)) {
            return;
        }
        int now = steps.usersNow(loops.size(), JMeterContextService.getContext().getThreadNum() + 1, StepKind.LOOPING);
        if (now != looping) {
            looping = now;
            loops.looping(now);
        }
    }

    private void takeOutcomes(RoundTrips trips) {
        for (int user = loops.takeSettled(); user >= 0; user = loops.takeSettled()) {
            // the clock read after the outcome was taken, not the loop's pass: an outcome queued after the pass read
            // its clock (this thread descheduled between the two on a busy machine) came later than that reading,
            // and a pause counted from the reading would end early
            long taken = System.nanoTime();
            UserTiming timing = sampler.timings().get(user);
            MessageTiming last = timing.lastSent();
            IncomingMessage answer = last.answer();
            last.forgetAnswer();
            long came = taken;
            if (answer != null) {
                came = answer.receivedNanos();
                trips.answered(Math.max(0, (came - last.sentNanos()) / 1000));
            } else if (last.isLost()) {
                came = last.deadlineNanos();
                trips.failed(Sample.REPLY_TIMEOUT, "No answer to " + last.msgId());
            } else {
                trips.failed(failedCode(timing), "FAILED " + last.msgId() + failedWhy(timing));
            }
            loops.thinksSince(user, came - taken < 0 ? came : taken);
        }
    }

    /** Why a message in flight FAILED: the session's ERROR, its loss, or the server refusing the SEND. */
    private static String failedCode(UserTiming timing) {
        if (timing.user().stompError() != null) {
            return Failure.STOMP_ERROR;
        }
        return timing.user().isConnected() ? Sample.SERVER_ERROR : Failure.CONNECTION_LOST;
    }

    private static String failedWhy(UserTiming timing) {
        String error = timing.user().stompError();
        if (error != null) {
            return ": " + error;
        }
        return timing.user().isConnected()
                ? ": refused by the server"
                : ": " + timing.user().notConnectedReason();
    }

    private void sendDue(long now, SampleResult result, MessageParts message, RoundTrips trips) {
        ThreadUsers users = sampler.users();
        for (int user = loops.takeDue(now); user >= 0; user = loops.takeDue(now)) {
            if (!users.reconnects().isConnected(user)) {
                users.reconnects().lost(user);
                loops.down(user);
                continue;
            }
            UserTiming timing = sampler.timings().get(user);
            String destination = destination(message.destination(), user, timing);
            try {
                var sent =
                        timing.send(destination, message.destination().source(), message.headers(), message.payload());
                if (trips.sent++ == 0 && sampler.describesRequests()) {
                    sampler.describeRequest(result, sent);
                }
                trips.bytes += sent.payload().length;
            } catch (SendFailedException e) {
                // FAILED in the books already; a round trip that ended at once
                trips.failed(Sample.SEND_FAILED, e.getMessage());
                loops.failedAtOnce(user, System.nanoTime()); // its write failed now, after the pass read its clock
                continue;
            }
            loops.sent(user);
            timing.lastSent().whenSettled(hooks[user]);
        }
    }

    private String destination(Template template, int user, UserTiming timing) {
        if (template != destinationsOf) {
            destinations = new String[loops.size()];
            destinationsOf = template;
        }
        String rendered = destinations[user];
        if (rendered == null) {
            rendered = template.render(Template.of(timing.user().settings()));
            destinations[user] = rendered;
        }
        return rendered;
    }

    /** Starts the connects of users down and due (their backoff over), as many as the lanes have room for. */
    private void reconnectDown(String label, long now) {
        ThreadUsers users = sampler.users();
        ConnectsInFlight lanes = users.inFlight();
        for (int user = 0; user < loops.size() && lanes.hasRoom() && loops.downCount() > 0; user++) {
            if (loops.state(user) != UserLoops.State.DOWN || users.reconnects().isConnecting(user)) {
                continue;
            }
            if (users.reconnects().isConnected(user)) {
                loops.connected(user); // silent, or its session came back under another sample
            } else if (users.reconnects().isDue(user, now)) {
                try {
                    lanes.start(user, label + " reconnect");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Applies the connects finished on the lanes: a user back sends at once, a failed connect is a sample. */
    private void takeConnects() {
        ThreadUsers users = sampler.users();
        ConnectsInFlight lanes = users.inFlight();
        while (lanes.hasFinished()) {
            SampleResult connect;
            try {
                connect = lanes.awaitFirst("reconnect");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (!connect.isSuccessful()) {
                pending.add(SenderRow.other(connect));
            }
        }
        for (int user = 0; user < loops.size() && loops.downCount() > 0; user++) {
            if (loops.state(user) == UserLoops.State.DOWN
                    && !users.reconnects().isConnecting(user)
                    && users.reconnects().isConnected(user)) {
                loops.connected(user);
            }
        }
    }

    private boolean endPassed() {
        return clock.nanosToEnd() <= 0;
    }

    /**
     * Whether the thread's end time comes within a sample's length (at least {@link #END_MARGIN_NANOS}): JMeter looks
     * at it between samples and calls none after it, so a sample that ended now would leave what is sent after it in no
     * sample; the last sample runs to the end time instead, and waits for what is in flight.
     */
    boolean endsSoon() {
        return clock.nanosToEnd() <= Math.max(sampleNanos, END_MARGIN_NANOS);
    }

    /** The thread's end time (its thread group's duration) on the nanosecond clock; a day away when it has none. */
    private long endNanos(long nowNanos) {
        return nowNanos + Math.min(clock.nanosToEnd(), TimeUnit.DAYS.toNanos(1));
    }

    private static SenderRow notReported() {
        SampleResult nothing = new SampleResult();
        nothing.setIgnore();
        return SenderRow.other(nothing);
    }

    @Override
    public String toString() {
        return "ClosedLoopSender[" + loops + "]";
    }
}
