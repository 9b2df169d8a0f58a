package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.*;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.HeaderList;
import io.github.sockjsstomp.client.IncomingMessage;
import io.github.sockjsstomp.client.MessageInbox;
import io.github.sockjsstomp.client.SendFailedException;
import io.github.sockjsstomp.client.SharedStompClients;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.timing.ReplyTracker;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.TimingStompUser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * A listener (chat receiver, push consumer): subscribes in setupTest, then each sample waits for a number of
 * messages, or collects for a time window, and reports what arrived. Messages that carry a timed id are
 * matched against their senders, so latency is measured where it matters: at the receiver. An optional
 * trigger message (a push request) is sent at the start of each sample.
 */
public class StompReceiveSampler extends AbstractStompSampler {

    /** Messages kept between samples before they are counted as overflow. */
    static final int INBOX_CAPACITY = 100_000;
    /** Response data shown in View Results Tree, at most. */
    static final int MAX_RESPONSE_BYTES = 64 * 1024;

    private final MessageInbox inbox = new MessageInbox(INBOX_CAPACITY);
    private int expectMessages;
    private long receiveTimeoutMillis;
    private long windowMillis;
    private String triggerDestination;
    private byte[] triggerPayload;

    @Override
    protected void addParameters(Arguments args) {
        args.addArgument(EXPECT_MESSAGES, EXPECT_MESSAGES_DEFAULT, null, "messages each sample waits for");
        args.addArgument(RECEIVE_TIMEOUT_MILLIS, RECEIVE_TIMEOUT_MILLIS_DEFAULT, null, "longest wait per sample");
        args.addArgument(WINDOW_MILLIS, WINDOW_MILLIS_DEFAULT, null, "> 0: collect for exactly this long instead");
        args.addArgument(TRIGGER_DESTINATION, "", null, "sent at the start of each sample; empty = none");
        args.addArgument(TRIGGER_PAYLOAD, "");
        args.addArgument(ID_HEADER, ID_HEADER_DEFAULT, null, "header carrying a timed message's id");
        args.addArgument(REPLY_ID_PATTERN, "", null, "regex with one group finding the id in a body");
    }

    @Override
    protected String defaultSubscribeTo() {
        return "/user/queue/chat";
    }

    @Override
    protected TimingOptions readParameters(ParameterReader params) {
        params.required(SUBSCRIBE_TO, defaultSubscribeTo());
        expectMessages = params.integer(EXPECT_MESSAGES, 1, 1, INBOX_CAPACITY);
        receiveTimeoutMillis = params.number(RECEIVE_TIMEOUT_MILLIS, Long.parseLong(RECEIVE_TIMEOUT_MILLIS_DEFAULT),
                1, Integer.MAX_VALUE);
        windowMillis = params.number(WINDOW_MILLIS, 0, 0, Integer.MAX_VALUE);
        triggerDestination = params.optional(TRIGGER_DESTINATION, "").trim();
        triggerPayload = params.optional(TRIGGER_PAYLOAD, "").getBytes(StandardCharsets.UTF_8);
        var pattern = readPattern(params);
        if (params.hasErrors()) {
            return null;
        }
        // A listener sends no timed messages: the timeout only satisfies the options' contract.
        return new TimingOptions(Long.parseLong(REPLY_TIMEOUT_MILLIS_DEFAULT), 1, false,
                params.optional(ID_HEADER, ID_HEADER_DEFAULT), pattern);
    }

    @Override
    protected TimingStompUser createUser(SharedStompClients shared, UserSettings settings, TimingOptions timing,
            TimingSink sink) {
        return new TimingStompUser(shared, settings, ReplyTracker.shared(), timing, sink) {
            @Override
            protected void onMessage(IncomingMessage message) {
                super.onMessage(message);
                inbox.add(message);
            }

            @Override
            protected void onStompError(String error) {
                super.onStompError(error);
                inbox.wake(Failure.STOMP_ERROR, error);
            }

            @Override
            protected void onConnectionLost(String reason) {
                super.onConnectionLost(reason);
                inbox.wake(SampleResults.CONNECTION_LOST, "Connection lost: " + reason);
            }
        };
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        // Every session of the thread listens; a lost one is reconnected before the wait.
        for (TimingStompUser user : sessions()) {
            SampleResult connectFailure = ensureConnected(user, label);
            if (connectFailure != null) {
                return connectFailure;
            }
        }
        TimingStompUser user = nextSession();
        SampleResult result = SampleResults.newResult(label);
        result.sampleStart();
        long startNanos = System.nanoTime();
        if (!triggerDestination.isEmpty()) {
            try {
                user.sendUntimed(triggerDestination, Map.of(), triggerPayload);
                result.setSentBytes(triggerPayload.length);
                result.setSamplerData("SEND " + triggerDestination + "\n\n"
                        + new String(triggerPayload, StandardCharsets.UTF_8));
            } catch (SendFailedException e) {
                result.sampleEnd();
                SampleResults.fail(result, SampleResults.SEND_FAILED, "Trigger " + e.getMessage());
                return result;
            }
        }
        // An ERROR that came since the last sample (a refused SUBSCRIBE, say) ends this wait at once.
        List<IncomingMessage> messages = windowMillis > 0 ? inbox.collect(windowMillis)
                : inbox.awaitCount(expectMessages, receiveTimeoutMillis);
        result.sampleEnd();
        MessageInbox.Wake woken = inbox.takeWake();
        if (!messages.isEmpty()) {
            result.setLatency(Math.max(0, (messages.get(0).receivedNanos() - startNanos) / 1_000_000));
        }
        describeResponse(result, messages);
        long overflow = inbox.takeOverflow();
        String summary = "Received " + messages.size() + " of " + expectMessages + " messages"
                + (overflow == 0 ? "" : "; " + overflow + " more arrived while the inbox was full (not shown)")
                + disconnected();
        if (woken != null && messages.size() < expectMessages) {
            SampleResults.fail(result, woken.code(), woken.reason() + "; " + summary);
        } else if (messages.size() >= expectMessages) {
            SampleResults.ok(result, summary);
        } else {
            SampleResults.fail(result, SampleResults.RECEIVE_TIMEOUT, summary + " within "
                    + (windowMillis > 0 ? windowMillis : receiveTimeoutMillis) + " ms");
        }
        return result;
    }

    private String disconnected() {
        for (TimingStompUser user : sessions()) {
            if (!user.isConnected()) {
                return "; " + user.notConnectedReason();
            }
        }
        return "";
    }

    private static void describeResponse(SampleResult result, List<IncomingMessage> messages) {
        long bytes = 0;
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        for (IncomingMessage message : messages) {
            bytes += message.payload().length;
            if (shown.size() + message.payload().length < MAX_RESPONSE_BYTES) {
                shown.writeBytes(message.payload());
                shown.write('\n');
            }
        }
        result.setResponseData(shown.toByteArray());
        // What arrived, not what is shown: the shown data is capped and has separators.
        result.setBodySize(bytes);
        if (!messages.isEmpty()) {
            result.setResponseHeaders(HeaderList.describe(messages.get(0).headers()));
        }
    }
}
