package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.*;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.HeaderList;
import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.OutgoingMessage;
import io.github.sockjsstomp.client.SendFailedException;
import io.github.sockjsstomp.client.Template;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.UserTiming;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Sends one timed message per sample (the send-message test), on the next of the users the thread's session
 * sampler ({@link StompConnectSampler}) made, reconnecting a lost one first when its backoff lets it (see
 * {@link #sender}). In fire-and-forget mode the
 * sample is the send and the reply's latency goes to the timing log; in await-reply mode the sample waits for
 * the first correlated reply and shows it as response data.
 *
 * <p>Destination, payload and headers are read per sample, so JMeter functions and CSV data in them vary per
 * message; everything else is fixed in setupTest.
 */
public class StompSendSampler extends StompSampler {

    private ThreadUsers users;
    private Run run;
    private List<UserTiming> timings;
    private boolean awaitReply;
    private long replyTimeoutMillis;
    private final Parsed<Template> destinations = new Parsed<>(DESTINATION);
    private final Parsed<Template> payloads = new Parsed<>(PAYLOAD);
    private final Parsed<Map<String, String>> headers = new Parsed<>(SEND_HEADERS);
    /** Whether anything will show the request text: the GUI, or a results file that saves it. */
    private boolean describeRequests;
    private boolean describeReplyHeaders;

    public StompSendSampler() {
        super(List.of(DESTINATION, PAYLOAD, SEND_HEADERS, AWAIT_REPLY, REPLY_FROM, REPLY_TIMEOUT_MILLIS,
                REPLIES_PER_MESSAGE, ID_HEADER, REPLY_ID_PATTERN, TIMING_LOG));
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        awaitReply = params.read(AWAIT_REPLY);
        replyTimeoutMillis = params.read(REPLY_TIMEOUT_MILLIS);
        int replies = params.readInt(REPLIES_PER_MESSAGE);
        String replyFrom = params.read(REPLY_FROM);
        boolean fromSenderOnly = replyFrom.equals(REPLY_FROM_SENDER)
                || replyFrom.equals(REPLY_FROM_AUTO) && awaitReply;
        String idHeader = params.read(ID_HEADER);
        var pattern = params.read(REPLY_ID_PATTERN);
        destinations.check(params);
        payloads.check(params);
        headers.check(params);
        run = joinRun(replyTimeoutMillis + 1000);
        users = ThreadUsers.current();
        if (users == null) {
            params.problem("'" + label + "' needs a session sampler (" + StompConnectSampler.class.getSimpleName()
                    + ") before it in the same thread: it makes and connects the users this sampler sends on");
        }
        TimingSink sink = params.hasErrors() ? TimingSink.NONE : timingLog(params, run);
        if (params.hasErrors()) {
            return;
        }
        TimingOptions options = new TimingOptions(replyTimeoutMillis, replies, awaitReply, idHeader, pattern,
                fromSenderOnly);
        try {
            timings = users.timing(label, options, sink, run.tracker());
        } catch (IllegalStateException e) {
            params.problem(e.getMessage());
        }
        describeRequests = Sample.requestTextWanted();
        describeReplyHeaders = Sample.responseHeadersWanted();
    }

    private static TimingSink timingLog(ParameterReader params, Run run) {
        String file = params.read(TIMING_LOG).trim();
        if (file.isEmpty()) {
            return TimingSink.NONE;
        }
        try {
            String engine = EngineName.current();
            return run.timingLog(EngineName.timingLogFor(Path.of(file), engine), EngineName.fileSafe(engine));
        } catch (IOException | RuntimeException e) {
            params.error(TIMING_LOG.name, file, "cannot be written: " + e.getMessage());
            return TimingSink.NONE;
        }
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        int next = users.nextIndex();
        Template destinationTemplate;
        Template payload;
        Map<String, String> sendHeaders;
        try {
            destinationTemplate = destinations.of(context);
            payload = payloads.of(context);
            sendHeaders = headers.of(context);
        } catch (IllegalArgumentException e) {
            SampleResult refused = Sample.failedAtOnce(label, Sample.CONFIG_ERROR, e.getMessage());
            refused.setStopTest(true);
            return refused;
        }
        int index = sender(next);
        UserTiming timing = timings.get(index);
        String destination = destinationTemplate.render(Template.of(timing.user().settings()));
        SampleResult connectFailure = users.ensureConnected(index, label);
        if (connectFailure != null) {
            try {
                // Not connected: the message is attempted anyway so the books count it as FAILED.
                timing.send(destination, sendHeaders, payload);
            } catch (SendFailedException expected) {
                // in the books
            }
            return connectFailure;
        }
        SampleResult result = Sample.timed(label, r -> send(timing, destination, sendHeaders, payload, r));
        if (users.subscribes() && timing.noneAnswered()) {
            noticeNoReply(label, timing, destination);
        }
        return result;
    }

    /** Once per run: a sender none of whose messages was answered is likely misconfigured, not a slow server. */
    private void noticeNoReply(String label, UserTiming timing, String destination) {
        long received = timing.user().messagesReceived();
        run.noticeOnce("no reply", "'" + label + "': " + timing.user().settings().name() + " sent messages to '"
                + destination + "' and none was answered within replyTimeoutMillis; its subscriptions (subscribeTo "
                + users.subscribeTo() + ") received " + (received == 0 ? "nothing at all" : received
                + " messages, none carrying the id of a message sent (untimed)") + ". Check destination, subscribeTo "
                + "and payload: a server that cannot read the payload often answers nothing, or answers without the "
                + "{{msgId}} the payload should carry");
    }

    /**
     * Who sends this message: the user in turn if it is connected or due to reconnect; else, while it backs
     * off, the next connected user of the thread; with none connected, the first due to reconnect, once this
     * thread has waited for it (untimed). So a user in backoff does not make every send a failed connect, and
     * an unthrottled plan makes at most one failed row per reconnect its users are allowed, not a flood.
     */
    private int sender(int next) throws InterruptedException {
        if (users.isConnected(next) || users.isDue(next)) {
            return next;
        }
        int connected = users.nextConnected(next);
        if (connected >= 0) {
            return connected;
        }
        int due = users.awaitNextRetry();
        return due >= 0 ? due : next;
    }

    private void send(UserTiming timing, String destination, Map<String, String> sendHeaders, Template payload,
            SampleResult result) throws InterruptedException {
        OutgoingMessage sent;
        try {
            sent = timing.send(destination, sendHeaders, payload);
        } catch (SendFailedException e) {
            Sample.fail(result, Sample.SEND_FAILED, e.getMessage());
            return;
        }
        describeRequest(result, sent);
        if (!awaitReply) {
            Sample.ok(result, "SENT " + sent.msgId());
            return;
        }
        IncomingMessage reply = timing.lastSent().awaitFirstReply(replyTimeoutMillis);
        if (reply == null) {
            noReply(timing, sent, result);
            return;
        }
        result.latencyEnd();
        Sample.ok(result, "Reply to " + sent.msgId() + " received by " + reply.receiver().name());
        result.setResponseData(reply.payload());
        if (describeReplyHeaders) {
            result.setResponseHeaders(HeaderList.describe(reply.headers()));
        }
        result.setBodySize((long) reply.payload().length);
    }

    private void noReply(UserTiming timing, OutgoingMessage sent, SampleResult result) {
        String error = timing.user().stompError();
        if (error != null) {
            Sample.fail(result, Failure.STOMP_ERROR, error);
        } else if (!timing.user().isConnected()) {
            Sample.fail(result, Sample.CONNECTION_LOST, "No reply to " + sent.msgId() + ": "
                    + timing.user().notConnectedReason());
        } else {
            Sample.fail(result, Sample.REPLY_TIMEOUT, "No reply to " + sent.msgId() + " within "
                    + replyTimeoutMillis + " ms");
        }
    }

    private void describeRequest(SampleResult result, OutgoingMessage sent) {
        result.setSentBytes(sent.payload().length);
        if (describeRequests) {
            result.setSamplerData("SEND " + sent.destination() + "\n" + HeaderList.describe(sent.headers()) + "\n"
                    + new String(sent.payload(), StandardCharsets.UTF_8));
        }
    }
}
