package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.Map;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * One message per sample ({@code messagesPerSecondPerThread = 0}, {@code loop=blocking}), paced by JMeter's timers, on the user
 * whose turn it is ({@code UserTurns}), reconnecting a lost one first when its backoff lets it. In fire-and-forget
 * mode the sample is the send and the reply's latency goes to the timing log; in await-reply mode the sample waits
 * for the first correlated reply and shows it as response data; in await-receipt mode it waits for the server's
 * RECEIPT, which answers the message. The scheduled sender sends a message this way too when its user must
 * reconnect first, or every user is down.
 */
public final class OneMessageSender implements Sender {

    private final SendingSampler sampler;
    private final SendMode mode;
    private final long replyTimeoutMillis;
    private final boolean describeReplyHeaders;
    /** Told when the thread waited (untimed) for a reconnect: the scheduled sender then skips its backlog. */
    private final Runnable waitedForAReconnect;

    /**
     * @param describeReplyHeaders whether anything will show a reply's headers (the GUI, or a results file that
     *     saves them)
     */
    public OneMessageSender(
            SendingSampler sampler, SendMode mode, long replyTimeoutMillis, boolean describeReplyHeaders) {
        this(sampler, mode, replyTimeoutMillis, describeReplyHeaders, () -> {});
    }

    OneMessageSender(
            SendingSampler sampler,
            SendMode mode,
            long replyTimeoutMillis,
            boolean describeReplyHeaders,
            Runnable waitedForAReconnect) {
        this.sampler = sampler;
        this.mode = mode;
        this.replyTimeoutMillis = replyTimeoutMillis;
        this.describeReplyHeaders = describeReplyHeaders;
        this.waitedForAReconnect = waitedForAReconnect;
    }

    @Override
    public SenderRow sample(JavaSamplerContext context, String label) throws InterruptedException {
        return send(context, label, sampler.users().turns().takeTurn());
    }

    /**
     * One message as one sample, on user {@code next} or the one {@link #sender} picks instead. A row of its message
     * once the message was written (or failed in the write): its outcome, answered, LOST or FAILED, is then a reply
     * row of its own, whatever the sample says (a reply timeout, a lost session); not when the sample says a refusal.
     */
    SenderRow send(JavaSamplerContext context, String label, int next) throws InterruptedException {
        SenderChecks.Read read = SenderChecks.message(sampler, context, label);
        if (read.configError() != null) {
            return SenderRow.other(read.configError());
        }
        MessageParts message = read.message();
        Template payload = message.payload();
        Map<String, String> sendHeaders = message.headers();
        int index = sender(next);
        UserTiming timing = sampler.timings().get(index);
        String destination =
                message.destination().render(Template.of(timing.user().settings()));
        ThreadUsers users = sampler.users();
        SampleResult connectFailure = users.connects().ensureConnected(index, label);
        if (connectFailure != null) {
            try {
                // Not connected: the message is attempted anyway so the books count it as FAILED.
                timing.send(destination, message.destination().source(), sendHeaders, payload);
            } catch (SendFailedException expected) {
                // in the books
            }
            return SenderRow.other(connectFailure);
        }
        String asWritten = message.destination().source();
        Written written = new Written();
        SampleResult result =
                Sample.timed(label, r -> send(timing, destination, asWritten, sendHeaders, payload, r, written));
        if (result.isSuccessful()) {
            SenderChecks.failIfRefused(users, result);
        }
        sampler.noticeIfNoneAnswered(label, timing);
        return new SenderRow(result, written.message && !Sample.SERVER_ERROR.equals(result.getResponseCode()));
    }

    /** Whether this sample's message was written, or failed in the write: the books have its outcome. */
    private static final class Written {
        boolean message;
    }

    /**
     * Who sends this message: the user in turn if it is connected or due to reconnect; else, while it backs
     * off, the next connected user of the thread; with none connected, the first due to reconnect, once this
     * thread has waited for it (untimed). So a user in backoff does not make every send a failed connect, and
     * an unthrottled plan makes at most one failed row per reconnect its users are allowed, not a flood.
     */
    private int sender(int next) throws InterruptedException {
        ThreadUsers users = sampler.users();
        int usable = users.turns().usable(next);
        if (usable >= 0) {
            return usable;
        }
        int due = users.turns().awaitNextDue();
        waitedForAReconnect.run();
        return due >= 0 ? due : next;
    }

    private void send(
            UserTiming timing,
            String destination,
            String destinationAsWritten,
            Map<String, String> sendHeaders,
            Template payload,
            SampleResult result,
            Written written)
            throws InterruptedException {
        OutgoingMessage sent;
        try {
            sent = timing.send(destination, destinationAsWritten, sendHeaders, payload);
        } catch (SendFailedException e) {
            written.message = true;
            Sample.fail(result, Sample.SEND_FAILED, e.getMessage());
            return;
        }
        written.message = true;
        sampler.describeRequest(result, sent);
        if (!mode.awaits()) {
            Sample.ok(result, "SENT " + sent.msgId());
            return;
        }
        IncomingMessage reply = timing.lastSent().awaitFirstReply(replyTimeoutMillis);
        timing.lastSent().forgetAnswer();
        if (reply == null) {
            noReply(timing, sent, result);
            return;
        }
        result.latencyEnd();
        if (mode.answeredByReceipt()) {
            Sample.ok(result, "Receipt for " + sent.msgId());
            return;
        }
        Sample.ok(
                result,
                "Reply to " + sent.msgId() + " received by " + reply.receiver().name());
        result.setResponseData(reply.payload());
        if (describeReplyHeaders) {
            result.setResponseHeaders(HeaderList.describe(reply.headers()));
        }
        result.setBodySize((long) reply.payload().length);
    }

    private void noReply(UserTiming timing, OutgoingMessage sent, SampleResult result) {
        String what = mode.answeredByReceipt() ? "No receipt for " : "No reply to ";
        String error = timing.user().stompError();
        if (error != null) {
            Sample.fail(result, Failure.STOMP_ERROR, error);
        } else if (!timing.user().isConnected()) {
            Sample.fail(
                    result,
                    Failure.CONNECTION_LOST,
                    what + sent.msgId() + ": " + timing.user().notConnectedReason());
        } else {
            Sample.fail(result, Sample.REPLY_TIMEOUT, what + sent.msgId() + " within " + replyTimeoutMillis + " ms");
        }
    }

    @Override
    public String toString() {
        return "OneMessageSender[" + mode + "]";
    }
}
