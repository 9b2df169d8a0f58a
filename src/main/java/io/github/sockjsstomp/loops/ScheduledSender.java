package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * The send sampler's scheduled sender ({@code messagesPerSecondPerThread > 0}): each wake-up sends every message of the
 * thread's {@link SendSchedule} due by now, round-robin over its users, and one sample gathers the wake-ups of up to
 * {@code sampleMillis}; the sample's count is the messages sent. One wake-up for many messages, and one JMeter
 * sample for many wake-ups, is what makes many users per thread cheap: JMeter's own work per sample (restoring
 * the plan's elements, the Java Request's arguments, the listeners) costs more than sending ten messages.
 */
public final class ScheduledSender implements Sender {

    /** The JMeter variable holding the last tick's lag behind schedule, in milliseconds. */
    public static final String LAG_VARIABLE = "stompSendLagMillis";

    private final SendingSampler sampler;
    /** A message whose user must reconnect first, or every user is down, goes on a sample of its own this way. */
    private final OneMessageSender one;

    private final SendSchedule schedule;
    /** How long one sample goes on waking and sending (0: one wake-up per sample). */
    private final long sampleNanos;
    /** A send that failed inside a tick, reported as the next sample (its message already FAILED in the books). */
    private SampleResult pendingFailure;
    /** Messages the schedule gave up while every user of the thread was down, not yet said in a sample. */
    private long skippedUnreported;
    /** The run's steps, when a steps sampler runs them; the thread's rate is then its share of each step's. */
    private final StepsFollower steps;

    private final SenderClock clock;

    public ScheduledSender(SendingSampler sampler, SendSchedule schedule, long sampleMillis, StepsFollower steps) {
        this(sampler, schedule, sampleMillis, steps, SenderClock.JMETER);
    }

    ScheduledSender(
            SendingSampler sampler, SendSchedule schedule, long sampleMillis, StepsFollower steps, SenderClock clock) {
        this.sampler = sampler;
        this.one = new OneMessageSender(sampler, SendMode.FIRE_AND_FORGET, 0, false, this::waitedForAReconnect);
        this.schedule = schedule;
        this.sampleNanos = TimeUnit.MILLISECONDS.toNanos(sampleMillis);
        this.steps = steps;
        this.clock = clock;
    }

    /** The thread waited for a reconnect and could send nothing: resume the rate, do not send the backlog at once. */
    private void waitedForAReconnect() {
        skippedUnreported += schedule.skipMissed(clock.nanoTime());
    }

    /**
     * The scheduled sender's sample: waits (untimed) for the next message due, then sends every message due by
     * now, and goes on waking and sending, within the same sample, while its next wake-up falls within
     * {@code sampleMillis} of this one (the time slept in between is the sample's idle time, not its elapsed
     * time). Not reported (ignored) when the thread's end time or JMeter's Stop came first.
     */
    @Override
    public SenderRow sample(JavaSamplerContext context, String label) throws InterruptedException {
        SampleResult result = tick(context, label);
        return new SenderRow(result, rowOfSentMessages(result));
    }

    /** A row whose messages all have an outcome of their own: sent, or failed in the write (FAILED in the books). */
    static boolean rowOfSentMessages(SampleResult result) {
        return result.isSuccessful() || Sample.SEND_FAILED.equals(result.getResponseCode());
    }

    private SampleResult tick(JavaSamplerContext context, String label) throws InterruptedException {
        if (pendingFailure != null) {
            SampleResult failure = pendingFailure;
            pendingFailure = null;
            return failure;
        }
        // A sample of its own: the messages the server refused were sent in earlier, successful samples.
        SampleResult refused = SenderChecks.refusedRow(sampler.users(), label);
        if (refused != null) {
            return refused;
        }
        long now = clock.nanoTime();
        // With rate steps the schedule is looked at again by the offer's next change (every 100 ms in a ramp): a
        // message due at a ramp's first, low rate must not hold the sender asleep past the step's higher one.
        boolean stepping = steps.steps(StepKind.RATE);
        long rateCheckNanos = 0;
        if (stepping) {
            rateCheckNanos = now + steps.nanosToNextChange();
            schedule.rate(steps.perSecondNow(), now);
            if (schedule.paused()) {
                // no step offers anything now: wait (untimed) for the next step, or the run's end
                try {
                    sleepUntil(now + steps.nanosToNextChange());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // JMeter's Stop
                }
                return notReported();
            }
        }
        schedule.start(now);
        if (schedule.due(now) == 0) {
            long wake = schedule.wakeNanos();
            try {
                if (!sleepUntil(stepping ? earlier(wake, rateCheckNanos) : wake)) {
                    return notReported();
                }
            } catch (InterruptedException e) {
                // JMeter's Stop: nothing was sent, nothing to report; the flag stays for JMeter to see.
                Thread.currentThread().interrupt();
                return notReported();
            }
            now = clock.nanoTime();
        }
        int due = schedule.due(now);
        if (due == 0) {
            return notReported();
        }
        schedule.woke(now);
        int inTurn = userFor(schedule.next());
        int first = connectedSender(inTurn);
        if (first < 0) {
            // Its user must reconnect first, or every user is down: this message alone, as one message per sample.
            SampleResult alone = one.send(context, label, inTurn).result();
            schedule.sent();
            return alone;
        }
        SenderChecks.Read read = SenderChecks.message(sampler, context, label);
        if (read.configError() != null) {
            return read.configError();
        }
        MessageParts message = read.message();
        long until = now + sampleNanos;
        Tally tally = new Tally(schedule.next(), stepping ? earlier(until, rateCheckNanos) : until);
        SampleResult result = Sample.timed(label, r -> sendWhileInSample(r, label, first, due, message, tally));
        Sample.idle(result, tally.idleNanos);
        return result;
    }

    /**
     * The sample's wake-ups: the first (already woken, {@code due} messages, the first on user {@code first}),
     * then each next one that falls within the sample, until a send fails, a user must reconnect (its message goes
     * on a sample of its own), the thread's end time comes or JMeter's Stop.
     */
    private void sendWhileInSample(
            SampleResult result, String label, int first, int due, MessageParts message, Tally tally) {
        int sender = first;
        int count = due;
        while (sendDue(result, label, sender, count, message, tally)) {
            long wake = schedule.wakeNanos();
            if (wake - tally.untilNanos > 0) {
                break;
            }
            long sleptFrom = clock.nanoTime();
            boolean woke;
            try {
                woke = sleepUntil(wake);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // JMeter's Stop: the sample keeps what it sent
                woke = false;
            }
            long now = clock.nanoTime();
            tally.idleNanos += now - sleptFrom;
            count = schedule.due(now);
            if (!woke || count == 0) {
                break;
            }
            schedule.woke(now);
            sender = connectedSender(userFor(schedule.next()));
            if (sender < 0) {
                break;
            }
        }
        if (tally.sent > 0) {
            report(result, label, tally);
        }
    }

    /**
     * Sends up to {@code due} scheduled messages, the first on user {@code first}, into the sample; false when the
     * sample must end here (a send failed, or the next message's user must reconnect first).
     */
    private boolean sendDue(SampleResult result, String label, int first, int due, MessageParts message, Tally tally) {
        long lagNanos = schedule.lagNanos(schedule.next(), clock.nanoTime());
        tally.woke(lagNanos);
        steps.sendLag(lagNanos);
        int index = first;
        for (int i = 0; i < due; i++) {
            if (i > 0) {
                index = connectedSender(userFor(schedule.next()));
                if (index < 0) {
                    return false; // a reconnect is due: that message on a sample of its own, next
                }
            }
            UserTiming timing = sampler.timings().get(index);
            String destination =
                    message.destination().render(Template.of(timing.user().settings()));
            OutgoingMessage sentMessage;
            try {
                sentMessage =
                        timing.send(destination, message.destination().source(), message.headers(), message.payload());
            } catch (SendFailedException e) {
                schedule.sent(); // FAILED in the books
                if (tally.sent == 0) {
                    Sample.fail(result, Sample.SEND_FAILED, e.getMessage());
                } else {
                    pendingFailure = Sample.failedAtOnce(label, Sample.SEND_FAILED, e.getMessage());
                }
                return false;
            }
            schedule.sent();
            if (tally.sent == 0 && sampler.describesRequests()) {
                sampler.describeRequest(result, sentMessage);
            }
            tally.sent(timing, sentMessage.payload().length);
        }
        return true;
    }

    private void report(SampleResult result, String label, Tally tally) {
        result.setSampleCount(tally.sent);
        result.setSentBytes(tally.bytes);
        long last = tally.firstMessage + tally.sent - 1;
        Sample.ok(
                result,
                "SENT " + tally.sent + (tally.sent == 1 ? " message" : " messages") + " (#"
                        + tally.firstMessage + (tally.sent == 1 ? "" : "-" + last) + ")"
                        + (tally.wakeUps == 1 ? "" : " in " + tally.wakeUps + " wake-ups") + ", the first "
                        + lagText(tally.firstLagNanos / 1e6)
                        + (tally.wakeUps == 1 ? "" : ", at most " + millis(tally.worstLagNanos / 1e6) + " ms")
                        + takeSkippedNotice());
        var variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(LAG_VARIABLE, Double.toString(millis(tally.worstLagNanos / 1e6)));
        }
        if (tally.lastTiming != null) {
            sampler.noticeIfNoneAnswered(label, tally.lastTiming);
        }
    }

    private static double millis(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    private static String lagText(double lagMillis) {
        double rounded = millis(Math.abs(lagMillis));
        return lagMillis >= 0 ? rounded + " ms behind schedule" : rounded + " ms early";
    }

    /**
     * What the next tick's message says, once, of the messages the schedule gave up while every user was down (empty
     * when none were); taking it clears the count.
     */
    private String takeSkippedNotice() {
        if (skippedUnreported == 0) {
            return "";
        }
        String text = "; " + skippedUnreported + " messages skipped while every user of the thread was down";
        skippedUnreported = 0;
        return text;
    }

    /** Message {@code message} of the thread goes to this user, round-robin. */
    private int userFor(long message) {
        return (int) (message % sampler.users().size());
    }

    /**
     * Who sends a scheduled message in a tick: the user in turn if it is connected; else, while it backs off, the
     * next connected user; -1 when it is due to reconnect, or none is connected: then that message goes on a
     * sample of its own ({@link OneMessageSender#send}), which reconnects or waits, so a tick never waits and
     * never connects.
     */
    private int connectedSender(int user) {
        ThreadUsers users = sampler.users();
        int usable = users.turns().usable(user);
        return usable >= 0 && users.reconnects().isConnected(usable) ? usable : -1;
    }

    /**
     * Sleeps until {@code wakeNanos}, or until the thread's end time (the thread group's duration) if that comes
     * first, as JMeter's timers do; false then, at once if the end time has passed (it can pass between JMeter's look
     * at it and this sample's wait). A sleep is interruptible (JMeter's Stop).
     */
    private boolean sleepUntil(long wakeNanos) throws InterruptedException {
        long waitNanos = wakeNanos - clock.nanoTime();
        if (waitNanos <= 0) {
            return true;
        }
        long toEndNanos = clock.nanosToEnd();
        if (toEndNanos < waitNanos) {
            if (toEndNanos > 0) {
                clock.sleep(toEndNanos);
            }
            return false;
        }
        clock.sleep(waitNanos);
        return true;
    }

    private static SampleResult notReported() {
        SampleResult nothing = new SampleResult();
        nothing.setIgnore();
        return nothing;
    }

    /** What one sample sent: its messages, bytes, wake-ups, lag behind schedule and time slept between wake-ups. */
    private static final class Tally {
        final long firstMessage;
        final long untilNanos;
        int sent;
        long bytes;
        int wakeUps;
        long firstLagNanos;
        long worstLagNanos = Long.MIN_VALUE;
        long idleNanos;
        UserTiming lastTiming;

        Tally(long firstMessage, long untilNanos) {
            this.firstMessage = firstMessage;
            this.untilNanos = untilNanos;
        }

        void woke(long lagNanos) {
            if (wakeUps++ == 0) {
                firstLagNanos = lagNanos;
            }
            worstLagNanos = Math.max(worstLagNanos, lagNanos);
        }

        void sent(UserTiming timing, int payloadBytes) {
            sent++;
            bytes += payloadBytes;
            lastTiming = timing;
        }
    }

    /** The earlier of two nanosecond times (compared by difference: the clock may wrap). */
    private static long earlier(long aNanos, long bNanos) {
        return aNanos - bNanos > 0 ? bNanos : aNanos;
    }
}
