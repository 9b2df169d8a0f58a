package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.EXPECT_MESSAGES;
import static io.github.sockjsstomp.sampler.StompParameters.ID_HEADER;
import static io.github.sockjsstomp.sampler.StompParameters.RECEIVE_FROM;
import static io.github.sockjsstomp.sampler.StompParameters.RECEIVE_TIMEOUT_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_ID_PATTERN;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_SAMPLES;
import static io.github.sockjsstomp.sampler.StompParameters.TRIGGER_DESTINATION;
import static io.github.sockjsstomp.sampler.StompParameters.TRIGGER_PAYLOAD;
import static io.github.sockjsstomp.sampler.StompParameters.WINDOW_MILLIS;

import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.user.MessageInbox;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.threadusers.SilentSessions;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.threadusers.UserTurns;
import io.github.sockjsstomp.timing.ReplyIdFinder;
import io.github.sockjsstomp.timing.ReplyMatcher;
import io.github.sockjsstomp.timing.Run;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A listener (chat receiver, push consumer): its users connect and subscribe in setupTest, then each sample
 * waits for a number of messages, or collects for a time window, and reports what arrived. Messages that
 * carry a timed id are matched against their senders, so latency is measured where it matters: at the
 * receiver. An optional trigger message (a push request) is sent at the start of each sample.
 */
public class StompReceiveSampler extends StompSampler {

    /** Response data shown in View Results Tree, at most. */
    static final int MAX_RESPONSE_BYTES = 64 * 1024;

    /** One list for every instance: JMeter makes a sampler per thread. */
    private static final List<Parameter<?>> PARAMETERS = parameters();

    private final MessageInbox inbox = new MessageInbox(StompParameters.INBOX_CAPACITY);
    private ThreadUsers users;
    private int expectMessages;
    private long receiveTimeoutMillis;
    private long windowMillis;
    private String triggerDestination;
    private byte[] triggerPayload;
    /** The outcome of the connects made in setupTest, reported by the first sample if one failed. */
    private SampleResult setupFailure;
    /** Whether a replies sampler makes a row of every timed message: the successful receive rows are then kept out. */
    private boolean replySamples;

    public StompReceiveSampler() {
        super(PARAMETERS);
    }

    private static List<Parameter<?>> parameters() {
        List<Parameter<?>> all = new ArrayList<>(ConnectionParameters.list(RECEIVE_FROM));
        all.addAll(List.of(
                EXPECT_MESSAGES,
                RECEIVE_TIMEOUT_MILLIS,
                WINDOW_MILLIS,
                TRIGGER_DESTINATION,
                TRIGGER_PAYLOAD,
                ID_HEADER,
                REPLY_ID_PATTERN,
                REPLY_SAMPLES));
        all.addAll(ServerFigurePolling.PARAMETERS);
        return List.copyOf(all);
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        if (params.read(RECEIVE_FROM).isEmpty()) {
            params.error(RECEIVE_FROM.name, "", "a listener needs a destination to subscribe to");
        }
        expectMessages = params.readInt(EXPECT_MESSAGES);
        replySamples = params.read(REPLY_SAMPLES);
        receiveTimeoutMillis = params.read(RECEIVE_TIMEOUT_MILLIS);
        windowMillis = params.read(WINDOW_MILLIS);
        triggerDestination = params.read(TRIGGER_DESTINATION).trim();
        triggerPayload = params.read(TRIGGER_PAYLOAD).getBytes(StandardCharsets.UTF_8);
        String idHeader = params.read(ID_HEADER);
        var pattern = params.read(REPLY_ID_PATTERN);
        Run run = joinRun(0);
        ServerFigurePolling.start(params, run);
        var settings = ConnectionParameters.read(params, RECEIVE_FROM, run);
        users = settings == null
                ? null
                : own(ConnectionParameters.users(
                        settings, settings.sharedClients(), 1, SilentSessions.Share.NONE, run));
        if (params.hasErrors() || users == null) {
            return;
        }
        ReplyMatcher replies = new ReplyMatcher(
                run.tracker(),
                new ReplyIdFinder(idHeader, pattern, run.tracker().ids()));
        for (VirtualUser user : users.users()) {
            user.addListener(replies);
            user.addListener(inbox);
        }
        setupFailure = connectAll(label);
    }

    /** The first failed connect, its message counting all that failed; null when all connected. */
    private SampleResult connectAll(String label) {
        int failures = 0;
        SampleResult first = null;
        try {
            for (int i = 0; i < users.size(); i++) {
                SampleResult connected = users.connects().connect(i, label + " connect");
                if (!connected.isSuccessful()) {
                    failures++;
                    first = first == null ? connected : first;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Sample.failedAtOnce(label, Sample.INTERRUPTED, "Interrupted while connecting");
        }
        if (first != null && users.size() > 1) {
            first.setResponseMessage(failures + " of " + users.size() + " sessions failed to connect; first: "
                    + first.getResponseMessage());
        }
        return first;
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        SampleResult failure = setupFailure;
        if (failure != null) {
            setupFailure = null;
            return failure;
        }
        // Every user of the thread listens; a lost one is reconnected before the wait once its backoff is over.
        SampleResult connectFailure = reconnectDue(label);
        if (connectFailure != null) {
            return connectFailure;
        }
        UserTurns turns = users.turns();
        int next = turns.takeTurn();
        int listening = turns.nextConnected(next);
        if (listening < 0) {
            // All down, none due: wait (untimed, bounded) for the first that is, then try it.
            int due = turns.awaitNextDue();
            connectFailure = due < 0 ? null : users.connects().ensureConnected(due, label);
            if (connectFailure != null) {
                return connectFailure;
            }
            listening = turns.nextConnected(next);
        }
        VirtualUser user = users.users().get(listening < 0 ? next : listening);
        SampleResult received = Sample.timed(label, result -> receive(user, result));
        if (replySamples && received.isSuccessful()) {
            // Its timed messages are each a reply row, timed from their send: this row is the receiver's wait.
            // A failed wait stays: it says which receiver waited in vain.
            received.setIgnore();
        }
        return received;
    }

    /** Connects again each user not connected whose backoff is over; the first that fails is the sample. */
    private SampleResult reconnectDue(String label) throws InterruptedException {
        for (int i = 0; i < users.size(); i++) {
            if (users.turns().isDue(i)) {
                SampleResult connectFailure = users.connects().ensureConnected(i, label);
                if (connectFailure != null) {
                    return connectFailure;
                }
            }
        }
        return null;
    }

    private void receive(VirtualUser user, SampleResult result) throws InterruptedException {
        long startNanos = System.nanoTime();
        if (!triggerDestination.isEmpty()) {
            try {
                StompHeaders headers = new StompHeaders();
                headers.setDestination(triggerDestination);
                user.send(headers, triggerPayload);
                result.setSentBytes(triggerPayload.length);
                result.setSamplerData(
                        "SEND " + triggerDestination + "\n\n" + new String(triggerPayload, StandardCharsets.UTF_8));
            } catch (SendFailedException e) {
                Sample.fail(result, Sample.SEND_FAILED, "Trigger " + e.getMessage());
                return;
            }
        }
        // An ERROR that came since the last sample (a refused SUBSCRIBE, say) ends this wait at once.
        List<IncomingMessage> messages =
                windowMillis > 0 ? inbox.collect(windowMillis) : inbox.awaitCount(expectMessages, receiveTimeoutMillis);
        if (!messages.isEmpty()) {
            result.setLatency(Math.max(0, (messages.get(0).receivedNanos() - startNanos) / 1_000_000));
        }
        describeResponse(result, messages);
        judge(result, messages, inbox.takeWake(), inbox.takeOverflow());
    }

    private void judge(SampleResult result, List<IncomingMessage> messages, MessageInbox.Wake woken, long overflow) {
        String summary = "Received " + messages.size() + " of " + expectMessages + " messages"
                + (overflow == 0 ? "" : "; " + overflow + " more arrived while the inbox was full (not shown)")
                + disconnected();
        if (woken != null && messages.size() < expectMessages) {
            Sample.fail(result, woken.code(), woken.reason() + "; " + summary);
        } else if (messages.size() >= expectMessages) {
            Sample.ok(result, summary);
        } else {
            Sample.fail(
                    result,
                    Sample.RECEIVE_TIMEOUT,
                    summary + " within " + (windowMillis > 0 ? windowMillis : receiveTimeoutMillis) + " ms");
        }
    }

    private String disconnected() {
        for (VirtualUser user : users.users()) {
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
