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

import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.loops.ClosedLoopSender;
import io.github.sockjsstomp.loops.MessageParts;
import io.github.sockjsstomp.loops.OneMessageSender;
import io.github.sockjsstomp.loops.ScheduledSender;
import io.github.sockjsstomp.loops.SendSchedule;
import io.github.sockjsstomp.loops.Sender;
import io.github.sockjsstomp.loops.SenderRow;
import io.github.sockjsstomp.loops.SendingSampler;
import io.github.sockjsstomp.samples.EngineName;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.threadusers.GroupThreads;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.UserTiming;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Sends timed messages (the send-message test) on the users the thread's session sampler
 * ({@link StompConnectSampler}) made, round-robin, reconnecting a lost one first when its backoff lets it (see
 * {@link OneMessageSender}). Two ways to pace them:
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
    private final MessageReader parts = new MessageReader();
    /** Whether anything will show the request text: the GUI, or a results file that saves it. */
    private boolean describeRequests;

    /** How this thread sends, picked once in setUp: one message per sample, the scheduled sender, the closed loop. */
    private Sender sender;

    /** A replies sampler makes a row of every message: this sampler's rows of sent messages are not shown. */
    private boolean replySamples;

    public StompSendSampler() {
        super(PARAMETERS);
    }

    /**
     * What this thread's sending is made of, read and checked from the sampler's parameters: a mix that cannot work
     * together (a scheduled or closed loop with a mode it cannot pace) is a ConfigError naming the parameter.
     */
    private record Settings(
            SendMode mode,
            boolean receipts,
            double messagesPerSecondPerThread,
            boolean closed,
            Pace pace,
            boolean replySamples,
            long replyTimeoutMillis,
            int replies,
            boolean fromSenderOnly,
            String idHeader,
            Pattern replyIdPattern) {

        static Settings read(ParameterReader params) {
            // read in the order the errors are to be told in
            SendMode mode = params.read(MODE);
            boolean receipts = params.read(RECEIPTS);
            double messagesPerSecondPerThread = params.read(MESSAGES_PER_SECOND_PER_THREAD);
            long tickMillis = params.read(TICK_MILLIS);
            long sampleMillis = params.read(SAMPLE_MILLIS);
            boolean replySamples = params.read(REPLY_SAMPLES);
            if (messagesPerSecondPerThread > 0 && mode.awaits()) {
                params.error(
                        MESSAGES_PER_SECOND_PER_THREAD.name,
                        String.valueOf(messagesPerSecondPerThread),
                        "the scheduled sender is fire-and-forget only; with mode=" + mode
                                + " use messagesPerSecondPerThread=0 (one message per sample, paced by a timer)");
            }
            boolean closed = params.read(LOOP).equals(LOOP_CLOSED);
            long pauseMillis = params.read(PAUSE_MILLIS);
            if (closed && !mode.awaits()) {
                params.error(
                        LOOP.name,
                        LOOP_CLOSED,
                        "the closed loop waits for each message's answer: use mode=await-reply or await-receipt (mode"
                                + " is " + mode + "), or loop=blocking");
            } else if (closed && messagesPerSecondPerThread > 0) {
                params.error(
                        LOOP.name,
                        LOOP_CLOSED,
                        "the closed loop paces each user by its answers and pauseMillis: use"
                                + " messagesPerSecondPerThread=0 (was " + messagesPerSecondPerThread + ")");
            }
            long replyTimeoutMillis = params.read(REPLY_TIMEOUT_MILLIS);
            int replies = params.readInt(REPLIES_PER_MESSAGE);
            String replyFrom = params.read(REPLY_FROM);
            boolean fromSenderOnly = replyFrom.equals(REPLY_FROM_SENDER)
                    || replyFrom.equals(REPLY_FROM_AUTO) && mode == SendMode.AWAIT_REPLY;
            return new Settings(
                    mode,
                    receipts,
                    messagesPerSecondPerThread,
                    closed,
                    new Pace(tickMillis, sampleMillis, pauseMillis),
                    replySamples,
                    replyTimeoutMillis,
                    replies,
                    fromSenderOnly,
                    params.read(ID_HEADER),
                    params.read(REPLY_ID_PATTERN));
        }

        TimingOptions timingOptions() {
            return new TimingOptions(
                    replyTimeoutMillis, replies, mode, idHeader, replyIdPattern, fromSenderOnly, receipts);
        }
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        describeRequests = Sample.requestTextWanted();
        Settings settings = Settings.read(params);
        replySamples = settings.replySamples();
        parts.check(params);
        run = joinRun(settings.replyTimeoutMillis() + 1000);
        sender = sender(settings);
        users = use(ThreadUsers.current());
        if (users == null) {
            params.problem("'" + label + "' needs a session sampler (" + StompConnectSampler.class.getSimpleName()
                    + ") before it in the same thread: it makes and connects the users this sampler sends on");
        }
        TimingSink sink = params.hasErrors() ? TimingSink.NONE : timingLog(params, run);
        if (params.hasErrors()) {
            return;
        }
        try {
            timings = users.timing().attach(label, settings.timingOptions(), sink, run.tracker());
            run.atFinish(() -> noticeNoReplyAtTheEnd(label));
        } catch (IllegalStateException e) {
            params.problem(e.getMessage());
        }
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

    /** How the senders pace their messages: the plan's tickMillis, sampleMillis and pauseMillis. */
    private record Pace(long tickMillis, long sampleMillis, long pauseMillis) {}

    /**
     * The one sender of this thread: the closed loop with {@code loop=closed}, the scheduled sender with {@code
     * messagesPerSecondPerThread > 0}, else one message per sample. A mix setUp refused picks one all the same: the test stops at
     * its first sample.
     */
    private Sender sender(Settings settings) {
        Pace pace = settings.pace();
        SendMode mode = settings.mode();
        Sending sending = new Sending();
        if (settings.closed() && mode.awaits()) {
            ClosedLoopSender loop =
                    new ClosedLoopSender(sending, pace.pauseMillis(), pace.sampleMillis(), pace.tickMillis());
            loop.follow(new StepsFollower(run, GroupThreads.ofThisThread(run), 0));
            return loop;
        }
        if (settings.messagesPerSecondPerThread() > 0 && !mode.awaits()) {
            return new ScheduledSender(
                    sending,
                    new SendSchedule(settings.messagesPerSecondPerThread(), pace.tickMillis()),
                    pace.sampleMillis(),
                    new StepsFollower(run, GroupThreads.ofThisThread(run), pace.tickMillis()));
        }
        return new OneMessageSender(sending, mode, settings.replyTimeoutMillis(), Sample.responseHeadersWanted());
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        SenderRow row = sender.sample(context, label);
        if (replySamples && row.ofMessages()) {
            // Each of its messages is a reply row of its own (answered, LOST, FAILED): shown here too, it would be
            // counted twice, and with the scheduled sender the dashboard would count ticks, not messages.
            row.result().setIgnore();
        }
        return row.result();
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

    void describeRequest(SampleResult result, OutgoingMessage sent) {
        result.setSentBytes(sent.payload().length);
        if (describeRequests) {
            result.setSamplerData(sent.requestText());
        }
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
