package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.*;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.HeaderList;
import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.OutgoingMessage;
import io.github.sockjsstomp.client.PayloadTemplate;
import io.github.sockjsstomp.client.SendFailedException;
import io.github.sockjsstomp.client.SessionNames;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.timing.TimingLog;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.TimingStompUser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Sends one timed message per sample (the send-message test). In fire-and-forget mode the sample is
 * the send and the reply's latency goes to the timing log; in await-reply mode the sample waits for the
 * first correlated reply and shows it as response data.
 *
 * <p>Destination, payload and headers are read per sample, so JMeter functions and CSV data in them vary per
 * message; everything else is fixed in setupTest. Without connection parameters ({@code host} absent) it sends
 * on the sessions a session sampler ({@link StompConnectSampler}) opened before it in the same thread, so that
 * JMeter does not evaluate settings that never change on every message.
 */
public class StompSendSampler extends AbstractStompSampler {

    private boolean awaitReply;
    private long replyTimeoutMillis;
    private String templateSource;
    private PayloadTemplate template;
    private String headersSource;
    private Map<String, String> headers;
    /** Whether anything will show the request text: the GUI, or a results file that saves it. */
    private boolean describeRequests;
    private boolean describeReplyHeaders;

    @Override
    protected void addParameters(Arguments args) {
        args.addArgument(DESTINATION, DESTINATION_DEFAULT, null, "may use {{session}} {{thread}} {{user}}");
        args.addArgument(PAYLOAD, PAYLOAD_DEFAULT, null, "placeholders: {{msgId}} {{seq}} {{thread}} {{session}} {{user}} {{sentAt}}");
        args.addArgument(SEND_HEADERS, "", null, "SEND headers: name:value;name2:value2");
        args.addArgument(MODE, MODE_FIRE_AND_FORGET, null, MODE_FIRE_AND_FORGET + " | " + MODE_AWAIT_REPLY);
        args.addArgument(REPLY_TIMEOUT_MILLIS, REPLY_TIMEOUT_MILLIS_DEFAULT, null, "after this a message is LOST");
        args.addArgument(REPLIES_PER_MESSAGE, REPLIES_PER_MESSAGE_DEFAULT, null, "0 = broadcast: every reply until the timeout");
        args.addArgument(ID_HEADER, ID_HEADER_DEFAULT, null, "header stamped with the message id; empty = none");
        args.addArgument(REPLY_ID_PATTERN, "", null, "regex with one group finding the id in a reply body");
        args.addArgument(TIMING_LOG, TIMING_LOG_DEFAULT, null, "CSV file of per-message outcomes; empty = none");
    }

    @Override
    protected String defaultSubscribeTo() {
        return "/user/queue/echo";
    }

    @Override
    protected boolean sendsTimedMessages() {
        return true;
    }

    @Override
    protected boolean attachesToThreadSessions() {
        return true;
    }

    @Override
    protected TimingOptions readParameters(ParameterReader params) {
        String mode = params.string(MODE, MODE_FIRE_AND_FORGET).trim();
        if (!mode.equals(MODE_FIRE_AND_FORGET) && !mode.equals(MODE_AWAIT_REPLY)) {
            params.error(MODE, mode, "expected " + MODE_FIRE_AND_FORGET + " or " + MODE_AWAIT_REPLY);
        }
        awaitReply = mode.equals(MODE_AWAIT_REPLY);
        describeRequests = SampleResults.requestTextWanted();
        describeReplyHeaders = SampleResults.responseHeadersWanted();
        String destination = params.required(DESTINATION, DESTINATION_DEFAULT);
        checkPlaceholders(params, DESTINATION, destination, SessionNames.DESTINATION_PLACEHOLDERS);
        params.parsed(PAYLOAD, PAYLOAD_DEFAULT, PayloadTemplate::compile, null);
        params.parsed(SEND_HEADERS, "", HeaderList::parse, Map.of());
        replyTimeoutMillis = params.number(REPLY_TIMEOUT_MILLIS, Long.parseLong(REPLY_TIMEOUT_MILLIS_DEFAULT), 1,
                Integer.MAX_VALUE);
        int replies = params.integer(REPLIES_PER_MESSAGE, 1, 0, 1_000_000);
        Pattern pattern = readPattern(params);
        if (params.hasErrors()) {
            return null;
        }
        return new TimingOptions(replyTimeoutMillis, replies, awaitReply, params.optional(ID_HEADER, ID_HEADER_DEFAULT),
                pattern);
    }

    @Override
    protected TimingSink openTimingSink(ParameterReader params) {
        String file = params.optional(TIMING_LOG, TIMING_LOG_DEFAULT).trim();
        if (file.isEmpty()) {
            return TimingSink.NONE;
        }
        try {
            String engine = EngineName.current();
            return TimingLog.open(EngineName.timingLogFor(Path.of(file), engine), EngineName.fileSafe(engine));
        } catch (IOException | RuntimeException e) {
            params.error(TIMING_LOG, file, "cannot be written: " + e.getMessage());
            return TimingSink.NONE;
        }
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        TimingStompUser user = nextSession();
        String destination = context.getParameter(DESTINATION, DESTINATION_DEFAULT).trim();
        PayloadTemplate payload;
        Map<String, String> sendHeaders;
        try {
            payload = template(context.getParameter(PAYLOAD, PAYLOAD_DEFAULT));
            sendHeaders = headers(ParameterReader.orEmpty(context.getParameter(SEND_HEADERS, "")));
            if (SessionNames.hasPlaceholder(destination)) {
                SessionNames.check(destination, SessionNames.DESTINATION_PLACEHOLDERS);
                UserSettings settings = user.settings();
                destination = SessionNames.expand(destination, settings.session(), settings.threadNumber(),
                        settings.name());
            }
        } catch (IllegalArgumentException e) {
            return SampleResults.immediateFailure(label, SampleResults.CONFIG_ERROR, ParameterReader.describe(
                    DESTINATION + "/" + PAYLOAD + "/" + SEND_HEADERS, destination + " / " + context.getParameter(PAYLOAD)
                            + " / " + context.getParameter(SEND_HEADERS), e.getMessage()));
        }
        SampleResult connectFailure = ensureConnected(user, label);
        if (connectFailure != null) {
            try {
                // Not connected: the message is attempted anyway so the books count it as FAILED.
                user.send(destination, sendHeaders, payload);
            } catch (SendFailedException expected) {
                // recorded by the timing user
            }
            return connectFailure;
        }
        SampleResult result = SampleResults.newResult(label);
        result.sampleStart();
        OutgoingMessage sent;
        try {
            sent = user.send(destination, sendHeaders, payload);
        } catch (SendFailedException e) {
            result.sampleEnd();
            SampleResults.fail(result, SampleResults.SEND_FAILED, e.getMessage());
            return result;
        }
        describeRequest(result, sent);
        if (!awaitReply) {
            result.sampleEnd();
            SampleResults.ok(result, "SENT " + sent.msgId());
            return result;
        }
        IncomingMessage reply = user.lastSent().awaitFirstReply(replyTimeoutMillis);
        if (reply == null) {
            result.sampleEnd();
            String error = user.stompError();
            if (error != null) {
                SampleResults.fail(result, Failure.STOMP_ERROR, error);
                return result;
            }
            if (!user.isConnected()) {
                SampleResults.fail(result, SampleResults.CONNECTION_LOST, "No reply to " + sent.msgId() + ": "
                        + user.notConnectedReason());
                return result;
            }
            SampleResults.fail(result, SampleResults.REPLY_TIMEOUT, "No reply to " + sent.msgId() + " within "
                    + replyTimeoutMillis + " ms");
            return result;
        }
        result.latencyEnd();
        result.sampleEnd();
        SampleResults.ok(result, "Reply to " + sent.msgId() + " received by " + reply.receiver());
        result.setResponseData(reply.payload());
        if (describeReplyHeaders) {
            result.setResponseHeaders(HeaderList.describe(reply.headers()));
        }
        result.setBodySize((long) reply.payload().length);
        return result;
    }

    private void describeRequest(SampleResult result, OutgoingMessage sent) {
        result.setSentBytes(sent.payload().length);
        if (describeRequests) {
            result.setSamplerData("SEND " + sent.destination() + "\n" + HeaderList.describe(sent.headers()) + "\n"
                    + new String(sent.payload(), StandardCharsets.UTF_8));
        }
    }

    private PayloadTemplate template(String source) {
        if (!source.equals(templateSource)) {
            template = PayloadTemplate.compile(source);
            templateSource = source;
        }
        return template;
    }

    private Map<String, String> headers(String source) {
        if (!source.equals(headersSource)) {
            headers = HeaderList.parse(source);
            headersSource = source;
        }
        return headers;
    }
}
