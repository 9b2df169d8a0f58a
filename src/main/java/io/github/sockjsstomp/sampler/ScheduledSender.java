package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.OutgoingMessage;
import io.github.sockjsstomp.client.SendFailedException;
import io.github.sockjsstomp.client.Template;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;

/**
 * The send sampler's scheduled sender ({@code ratePerThread > 0}): a sample is a tick that sends, in one wake-up,
 * every message of the thread's {@link SendSchedule} due by now, round-robin over its users; the sample's count is
 * the messages sent. One JMeter sample and one wake-up for many messages is what makes many users per thread
 * cheap.
 */
final class ScheduledSender {

    /** The JMeter variable holding the last tick's lag behind schedule, in milliseconds. */
    static final String LAG_VARIABLE = "stompSendLagMillis";

    private final StompSendSampler sampler;
    private final SendSchedule schedule;
    /** A send that failed inside a tick, reported as the next sample (its message already FAILED in the books). */
    private SampleResult pendingFailure;
    /** Messages the schedule gave up while every user of the thread was down, not yet said in a sample. */
    private long skippedUnreported;

    ScheduledSender(StompSendSampler sampler, SendSchedule schedule) {
        this.sampler = sampler;
        this.schedule = schedule;
    }

    /** The thread waited for a reconnect and could send nothing: resume the rate, do not send the backlog at once. */
    void waitedForAReconnect() {
        skippedUnreported += schedule.skipMissed(System.nanoTime());
    }

    /**
     * The scheduled sender's sample: waits (untimed) for the next message due, then sends every message due by
     * now. Not reported (ignored) when the thread's end time or JMeter's Stop came first.
     */
    SampleResult tick(JavaSamplerContext context, String label) throws InterruptedException {
        if (pendingFailure != null) {
            SampleResult failure = pendingFailure;
            pendingFailure = null;
            return failure;
        }
        long now = System.nanoTime();
        schedule.start(now);
        if (schedule.due(now) == 0) {
            try {
                if (!sleepUntil(schedule.wakeNanos())) {
                    return notReported();
                }
            } catch (InterruptedException e) {
                // JMeter's Stop: nothing was sent, nothing to report; the flag stays for JMeter to see.
                Thread.currentThread().interrupt();
                return notReported();
            }
            now = System.nanoTime();
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
            SampleResult one = sampler.sendOne(context, label, inTurn);
            schedule.sent();
            return one;
        }
        MessageParts message;
        try {
            message = sampler.parts().read(context);
        } catch (IllegalArgumentException e) {
            return Sample.configError(label, e.getMessage());
        }
        return Sample.timed(label, r -> sendDue(r, label, first, due, message));
    }

    /** Sends up to {@code due} scheduled messages, the first on user {@code first}, as one sample. */
    private void sendDue(SampleResult result, String label, int first, int due, MessageParts message) {
        long firstMessage = schedule.next();
        long lagNanos = schedule.lagNanos(firstMessage, System.nanoTime());
        int sent = 0;
        long bytes = 0;
        int index = first;
        UserTiming timing = null;
        String destination = null;
        for (int i = 0; i < due; i++) {
            if (i > 0) {
                index = connectedSender(userFor(schedule.next()));
                if (index < 0) {
                    break; // a reconnect is due: that message on a sample of its own, next
                }
            }
            timing = sampler.timings().get(index);
            destination = message.destination().render(Template.of(timing.user().settings()));
            OutgoingMessage sentMessage;
            try {
                sentMessage = timing.send(destination, message.headers(), message.payload());
            } catch (SendFailedException e) {
                schedule.sent(); // FAILED in the books
                if (sent == 0) {
                    Sample.fail(result, Sample.SEND_FAILED, e.getMessage());
                    return;
                }
                pendingFailure = Sample.failedAtOnce(label, Sample.SEND_FAILED, e.getMessage());
                break;
            }
            schedule.sent();
            if (sent++ == 0 && sampler.describesRequests()) {
                sampler.describeRequest(result, sentMessage);
            }
            bytes += sentMessage.payload().length;
        }
        result.setSampleCount(sent);
        result.setSentBytes(bytes);
        double lagMillis = lagNanos / 1e6;
        Sample.ok(result, "SENT " + sent + (sent == 1 ? " message" : " messages") + " (#" + firstMessage
                + (sent == 1 ? "" : "-" + (firstMessage + sent - 1)) + "), the first " + lagText(lagMillis)
                + skipped());
        var variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(LAG_VARIABLE, Double.toString(Math.round(lagMillis * 1000) / 1000.0));
        }
        if (timing != null && sampler.users().subscribes() && timing.noneAnswered()) {
            sampler.noticeNoReply(label, timing, destination);
        }
    }

    private static String lagText(double lagMillis) {
        double rounded = Math.round(Math.abs(lagMillis) * 1000) / 1000.0;
        return lagMillis >= 0 ? rounded + " ms behind schedule" : rounded + " ms early";
    }

    /** Says once, in the next tick's message, how many messages the schedule gave up while every user was down. */
    private String skipped() {
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
     * sample of its own ({@link StompSendSampler#sendOne}), which reconnects or waits, so a tick never waits and
     * never connects.
     */
    private int connectedSender(int user) {
        if (sampler.users().isConnected(user)) {
            return user;
        }
        return sampler.users().isDue(user) ? -1 : sampler.users().nextConnected(user);
    }

    /**
     * Sleeps until {@code wakeNanos}, or until the thread's end time (the thread group's duration) if that comes
     * first, as JMeter's timers do; false then. A sleep is interruptible (JMeter's Stop).
     */
    private static boolean sleepUntil(long wakeNanos) throws InterruptedException {
        long waitNanos = wakeNanos - System.nanoTime();
        if (waitNanos <= 0) {
            return true;
        }
        JMeterThread thread = JMeterContextService.getContext().getThread();
        long endMillis = thread == null ? 0 : thread.getEndTime();
        if (endMillis > 0) {
            long toEndNanos = TimeUnit.MILLISECONDS.toNanos(endMillis - System.currentTimeMillis());
            if (toEndNanos > 0 && toEndNanos < waitNanos) {
                TimeUnit.NANOSECONDS.sleep(toEndNanos);
                return false;
            }
        }
        TimeUnit.NANOSECONDS.sleep(waitNanos);
        return true;
    }

    private static SampleResult notReported() {
        SampleResult nothing = new SampleResult();
        nothing.setIgnore();
        return nothing;
    }
}
