package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.DESTINATION;
import static io.github.sockjsstomp.sampler.StompParameters.ID_HEADER;
import static io.github.sockjsstomp.sampler.StompParameters.LOOP;
import static io.github.sockjsstomp.sampler.StompParameters.LOOP_CLOSED;
import static io.github.sockjsstomp.sampler.StompParameters.MODE;
import static io.github.sockjsstomp.sampler.StompParameters.PAUSE_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.PAYLOAD;
import static io.github.sockjsstomp.sampler.StompParameters.RECEIPTS;
import static io.github.sockjsstomp.sampler.StompParameters.REPLIES_PER_MESSAGE;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_FROM;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_FROM_AUTO;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_FROM_SENDER;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_ID_PATTERN;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_SAMPLES;
import static io.github.sockjsstomp.sampler.StompParameters.REPLY_TIMEOUT_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.SEND_HEADERS;
import static io.github.sockjsstomp.sampler.StompParameters.TIMING_LOG;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.SendFailedException;
import io.github.sockjsstomp.loops.ClosedLoopSender;
import io.github.sockjsstomp.loops.MessageParts;
import io.github.sockjsstomp.loops.ScheduledSender;
import io.github.sockjsstomp.loops.SendSchedule;
import io.github.sockjsstomp.loops.SendingSampler;
import io.github.sockjsstomp.samples.EngineName;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.threadusers.GroupThreads;
import io.github.sockjsstomp.threadusers.ThreadTiming;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.SendMode;
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
 * Sends timed messages (the send-message test) on the users the thread's session sampler
 * ({@link StompConnectSampler}) made, round-robin, reconnecting a lost one first when its backoff lets it (see
 * {@link #sender}). Two ways to pace them:
 *
 * <ul>
 * <li>{@code messagesPerSecondPerThread = 0} (the default): one message per sample, paced by JMeter's timers (a
 * Constant Throughput Timer, a Constant Timer). In fire-and-forget mode the sample is the send and the reply's latency goes
 * to the timing log; in await-reply mode the sample waits for the first correlated reply and shows it as
 * response data; in await-receipt mode it waits for the server's RECEIPT, which answers the message.
 * <li>{@code messagesPerSecondPerThread > 0}, the scheduled sender (fire-and-forget only): the sampler owns the
 * schedule ({@link SendSchedule}). The thread sleeps until the next message is due (no sooner than {@code tickMillis}
 * after its last wake-up), then sends every message due by now in one go; a sample gathers the wake-ups of up to
 * {@code sampleMillis}: its count ({@link SampleResult#getSampleCount()}) is the messages sent, its time the
 * time spent sending them (the sleeps in between are its idle time), and its message says how far the first of
 * them, and the most behind, were from their intended time (the latter also in the variable
 * {@value ScheduledSender#LAG_VARIABLE}). A sample that sent nothing is not reported. One wake-up for many
 * messages and one JMeter sample for many wake-ups is what makes many users per thread cheap (see bench/RESULTS.md,
 * Capacity).
 * </ul>
 *
 * <p>Every message is in the books once, whatever happens: a scheduled message whose user is down goes to the
 * thread's next connected user, or waits for a reconnect on its own sample (which, failing, fails that message);
 * a send that fails ends its tick, and its failure is the next sample, so JMeter counts each failed message as
 * one failed sample and each tick's count holds only messages sent.
 *
 * <p>With {@code receipts=true} (always with await-receipt) every SEND asks for a RECEIPT, timed apart from the
 * reply into the timing log's {@code receipt_us}.
 *
 * <p>Destination, payload and headers are read per sample, so JMeter functions and CSV data in them vary per
 * message (per sample, in the scheduled sender); everything else is fixed in setupTest.
 */
public class StompSendSampler extends StompSampler {

    /** Messages per second this thread sends; 0: one per sample. A constant of this sampler's own. */
    static final Parameter<Double> MESSAGES_PER_SECOND_PER_THREAD = Parameter.decimal(
            "messagesPerSecondPerThread",
            0,
            Parameter.range(0.0, 1_000_000.0),
            "messages per second this thread sends on its users, round-robin, a sample per tick (fire-and-forget); "
                    + "0 = one message per sample, paced by JMeter timers");

    static final Parameter<Long> TICK_MILLIS = Parameter.whole(
            "tickMillis",
            10,
            Parameter.range(1, 60_000),
            "with messagesPerSecondPerThread: the shortest time between two wake-ups; messages due meanwhile share "
                    + "one wake-up; with loop=closed: how often the thread looks at its users' reconnects while one is down and, with "
                    + "pauseMillis > 0, at their outcomes (each pause kept to within a tick)");
    static final Parameter<Long> SAMPLE_MILLIS = Parameter.whole(
            "sampleMillis",
            100,
            Parameter.range(0, 60_000),
            "with messagesPerSecondPerThread: one sample gathers the wake-ups of up to this many ms (0 = a sample "
                    + "per wake-up); its time is the time spent sending, the sleeps between wake-ups are its idle time; with "
                    + "loop=closed: one sample gathers the round trips answered within this many ms");

    /** One list for every instance: JMeter makes a sampler per thread. */
    private static final List<Parameter<?>> PARAMETERS = List.of(
            DESTINATION,
            PAYLOAD,
            SEND_HEADERS,
            MODE,
            RECEIPTS,
            REPLY_FROM,
            REPLY_TIMEOUT_MILLIS,
            REPLIES_PER_MESSAGE,
            ID_HEADER,
            REPLY_ID_PATTERN,
            TIMING_LOG,
            MESSAGES_PER_SECOND_PER_THREAD,
            TICK_MILLIS,
            SAMPLE_MILLIS,
            REPLY_SAMPLES,
            LOOP,
            PAUSE_MILLIS);

    private ThreadUsers users;
    private Run run;
    private List<UserTiming> timings;
    private SendMode mode;
    private long replyTimeoutMillis;
    private final MessageReader parts = new MessageReader();
    /** Whether anything will show the request text: the GUI, or a results file that saves it. */
    private boolean describeRequests;

    private boolean describeReplyHeaders;
    /** The scheduled sender; null: one message per sample. */
    private ScheduledSender scheduled;
    /** The closed loop ({@code loop=closed}); null: one message per sample. */
    private ClosedLoopSender closedLoop;

    /** A replies sampler makes a row of every message: this sampler's rows of sent messages are not shown. */
    private boolean replySamples;
    /**
     * Whether the last one-message sample sent its message (or failed in the write): its outcome, answered, LOST or
     * FAILED, is then a reply row of its own, whatever the sample says (a reply timeout, a lost session).
     */
    private boolean lastRowWasMessage;

    public StompSendSampler() {
        super(PARAMETERS);
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        mode = params.read(MODE);
        boolean awaitReply = mode == SendMode.AWAIT_REPLY;
        boolean receipts = params.read(RECEIPTS);
        double messagesPerSecondPerThread = params.read(MESSAGES_PER_SECOND_PER_THREAD);
        long tickMillis = params.read(TICK_MILLIS);
        long sampleMillis = params.read(SAMPLE_MILLIS);
        replySamples = params.read(REPLY_SAMPLES);
        if (messagesPerSecondPerThread > 0 && mode.awaits()) {
            params.error(
                    MESSAGES_PER_SECOND_PER_THREAD.name,
                    String.valueOf(messagesPerSecondPerThread),
                    "the scheduled sender is fire-and-forget " + "only; with mode=" + mode
                            + " use messagesPerSecondPerThread=0 (one message per sample, paced by a timer)");
        }
        boolean closed = params.read(LOOP).equals(LOOP_CLOSED);
        long pauseMillis = params.read(PAUSE_MILLIS);
        if (closed && !mode.awaits()) {
            params.error(
                    LOOP.name,
                    LOOP_CLOSED,
                    "the closed loop waits for each message's answer: use mode=await-reply or await-receipt (mode is "
                            + mode + "), or loop=blocking");
        } else if (closed && messagesPerSecondPerThread > 0) {
            params.error(
                    LOOP.name,
                    LOOP_CLOSED,
                    "the closed loop paces each user by its answers and pauseMillis: use messagesPerSecondPerThread=0"
                            + " (was " + messagesPerSecondPerThread + ")");
        }
        closedLoop = closed && mode.awaits()
                ? new ClosedLoopSender(new Sending(), pauseMillis, sampleMillis, tickMillis)
                : null;
        replyTimeoutMillis = params.read(REPLY_TIMEOUT_MILLIS);
        int replies = params.readInt(REPLIES_PER_MESSAGE);
        String replyFrom = params.read(REPLY_FROM);
        boolean fromSenderOnly = replyFrom.equals(REPLY_FROM_SENDER) || replyFrom.equals(REPLY_FROM_AUTO) && awaitReply;
        String idHeader = params.read(ID_HEADER);
        var pattern = params.read(REPLY_ID_PATTERN);
        parts.check(params);
        run = joinRun(replyTimeoutMillis + 1000);
        if (closedLoop != null) {
            closedLoop.follow(new StepsFollower(run, GroupThreads.ofThisThread(run), 0));
        }
        scheduled = messagesPerSecondPerThread > 0 && !mode.awaits()
                ? new ScheduledSender(
                        new Sending(),
                        new SendSchedule(messagesPerSecondPerThread, tickMillis),
                        sampleMillis,
                        new StepsFollower(run, GroupThreads.ofThisThread(run), tickMillis))
                : null;
        users = use(ThreadUsers.current());
        if (users == null) {
            params.problem("'" + label + "' needs a session sampler (" + StompConnectSampler.class.getSimpleName()
                    + ") before it in the same thread: it makes and connects the users this sampler sends on");
        }
        TimingSink sink = params.hasErrors() ? TimingSink.NONE : timingLog(params, run);
        if (params.hasErrors()) {
            return;
        }
        TimingOptions options =
                new TimingOptions(replyTimeoutMillis, replies, mode, idHeader, pattern, fromSenderOnly, receipts);
        try {
            timings = users.timing().attach(label, options, sink, run.tracker());
            run.atFinish(() -> noticeNoReplyAtTheEnd(label));
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
        SampleResult result;
        boolean messagesOfItsOwn;
        if (closedLoop != null) {
            result = closedLoop.tick(context, label);
            messagesOfItsOwn = closedLoop.lastWasRoundTrips();
        } else if (scheduled != null) {
            result = scheduled.tick(context, label);
            messagesOfItsOwn = rowOfSentMessages(result);
        } else {
            lastRowWasMessage = false;
            result = sendOne(context, label, users.turns().takeTurn());
            messagesOfItsOwn = lastRowWasMessage && !Sample.SERVER_ERROR.equals(result.getResponseCode());
        }
        if (replySamples && messagesOfItsOwn) {
            // Each of its messages is a reply row of its own (answered, LOST, FAILED): shown here too, it would be
            // counted twice, and with the scheduled sender the dashboard would count ticks, not messages.
            result.setIgnore();
        }
        return result;
    }

    /** A row whose messages all have an outcome of their own: sent, or failed in the write (FAILED in the books). */
    static boolean rowOfSentMessages(SampleResult result) {
        return result.isSuccessful() || Sample.SEND_FAILED.equals(result.getResponseCode());
    }

    /** One message as one sample, on user {@code next} or the one {@link #sender} picks instead. */
    SampleResult sendOne(JavaSamplerContext context, String label, int next) throws InterruptedException {
        MessageParts message;
        try {
            message = parts.read(context);
        } catch (IllegalArgumentException e) {
            return Sample.configError(label, e.getMessage());
        }
        Template payload = message.payload();
        Map<String, String> sendHeaders = message.headers();
        int index = sender(next);
        UserTiming timing = timings.get(index);
        String destination =
                message.destination().render(Template.of(timing.user().settings()));
        SampleResult connectFailure = users.connects().ensureConnected(index, label);
        if (connectFailure != null) {
            try {
                // Not connected: the message is attempted anyway so the books count it as FAILED.
                timing.send(destination, message.destination().source(), sendHeaders, payload);
            } catch (SendFailedException expected) {
                // in the books
            }
            return connectFailure;
        }
        String asWritten = message.destination().source();
        SampleResult result = Sample.timed(label, r -> send(timing, destination, asWritten, sendHeaders, payload, r));
        if (result.isSuccessful()) {
            sayRefusals(result);
        }
        noticeIfNoneAnswered(label, timing);
        return result;
    }

    /**
     * A sample that sent its message fails if the server refused earlier frames of the thread's users that no
     * sample said: in fire-and-forget the refused message's own sample was over before the ERROR came.
     */
    private void sayRefusals(SampleResult result) {
        String refused = users.timing().refusals().take();
        if (refused != null) {
            Sample.fail(
                    result,
                    Sample.SERVER_ERROR,
                    ThreadTiming.refusedText(refused) + "; this sample's message was sent");
        }
    }

    /**
     * At the run's end, with every message's outcome in the books: a run too short for the notice during the run
     * (its first sends less than replyTimeoutMillis before its end, or a connect that took most of it) still says
     * so, once. On the engine thread, after this sampler's thread stopped.
     */
    private void noticeNoReplyAtTheEnd(String label) {
        for (UserTiming timing : timings) {
            if (noticeIfNoneAnswered(label, timing)) {
                return;
            }
        }
    }

    /**
     * Once per run: a sender none of whose messages was answered is likely misconfigured, not a slow server. Only
     * for users that subscribe: without a subscription nothing can answer.
     *
     * @return whether {@code timing}'s user is such a sender
     */
    boolean noticeIfNoneAnswered(String label, UserTiming timing) {
        if (!users.connects().subscribes() || !timing.noneAnswered()) {
            return false;
        }
        String destination = timing.lastDestination();
        long received = timing.user().messagesReceived();
        run.noticeOnce(
                "no reply",
                "'" + label + "': " + timing.user().settings().name() + " sent messages to '"
                        + destination
                        + "' and none was answered within replyTimeoutMillis; its subscriptions (subscribeTo "
                        + users.connects().subscribeTo() + ") received "
                        + (received == 0
                                ? "nothing at all"
                                : received + " messages, none carrying the id of a message sent (untimed)")
                        + ". Check destination, subscribeTo "
                        + "and payload: a server that cannot read the payload often answers nothing, or answers without the "
                        + "{{msgId}} the payload should carry");
        return true;
    }

    /**
     * Who sends this message: the user in turn if it is connected or due to reconnect; else, while it backs
     * off, the next connected user of the thread; with none connected, the first due to reconnect, once this
     * thread has waited for it (untimed). So a user in backoff does not make every send a failed connect, and
     * an unthrottled plan makes at most one failed row per reconnect its users are allowed, not a flood.
     */
    private int sender(int next) throws InterruptedException {
        int usable = users.turns().usable(next);
        if (usable >= 0) {
            return usable;
        }
        int due = users.turns().awaitNextDue();
        if (scheduled != null) {
            scheduled.waitedForAReconnect();
        }
        return due >= 0 ? due : next;
    }

    private void send(
            UserTiming timing,
            String destination,
            String destinationAsWritten,
            Map<String, String> sendHeaders,
            Template payload,
            SampleResult result)
            throws InterruptedException {
        OutgoingMessage sent;
        try {
            sent = timing.send(destination, destinationAsWritten, sendHeaders, payload);
        } catch (SendFailedException e) {
            lastRowWasMessage = true;
            Sample.fail(result, Sample.SEND_FAILED, e.getMessage());
            return;
        }
        lastRowWasMessage = true;
        describeRequest(result, sent);
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

    void describeRequest(SampleResult result, OutgoingMessage sent) {
        result.setSentBytes(sent.payload().length);
        if (describeRequests) {
            result.setSamplerData(requestText(sent));
        }
    }

    /** The SEND as a sample's request text: its destination, headers and body. */
    static String requestText(OutgoingMessage sent) {
        return "SEND " + sent.destination() + "\n" + HeaderList.describe(sent.headers()) + "\n"
                + new String(sent.payload(), StandardCharsets.UTF_8);
    }

    /** What the senders' loops need of this sampler: nested, so that the sampler's own face stays JMeter's. */
    private final class Sending implements SendingSampler {

        @Override
        public ThreadUsers users() {
            return users;
        }

        @Override
        public List<UserTiming> timings() {
            return timings;
        }

        @Override
        public MessageParts message(JavaSamplerContext context) {
            return parts.read(context);
        }

        @Override
        public SampleResult sendOne(JavaSamplerContext context, String label, int next) throws InterruptedException {
            return StompSendSampler.this.sendOne(context, label, next);
        }

        @Override
        public boolean describesRequests() {
            return describeRequests;
        }

        @Override
        public void describeRequest(SampleResult result, OutgoingMessage sent) {
            StompSendSampler.this.describeRequest(result, sent);
        }

        @Override
        public boolean noticeIfNoneAnswered(String label, UserTiming timing) {
            return StompSendSampler.this.noticeIfNoneAnswered(label, timing);
        }
    }
}
