package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.REPLY_TIMEOUT_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_CONNECT_FAILED_PERCENT;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_CONNECT_P99_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_FAILED_PERCENT;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_HEARTBEAT_MISSES;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_LOST_PERCENT;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_P50_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_P999_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.SLO_P99_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.STEPS;
import static io.github.sockjsstomp.sampler.StompParameters.STEPS_LOG;
import static io.github.sockjsstomp.sampler.StompParameters.STEPS_START;
import static io.github.sockjsstomp.sampler.StompParameters.STEP_HOLD_SECONDS;
import static io.github.sockjsstomp.sampler.StompParameters.STEP_KIND;
import static io.github.sockjsstomp.sampler.StompParameters.STEP_RAMP_SECONDS;
import static io.github.sockjsstomp.sampler.StompParameters.STOP_ON_BREAK;

import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.samples.EngineName;
import io.github.sockjsstomp.samples.RunReports;
import io.github.sockjsstomp.steps.GeneratorCheck;
import io.github.sockjsstomp.steps.GeneratorQueues;
import io.github.sockjsstomp.steps.ServiceLevel;
import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.steps.StepPlan;
import io.github.sockjsstomp.steps.Stepper;
import io.github.sockjsstomp.steps.StepsLog;
import io.github.sockjsstomp.steps.StepsStart;
import io.github.sockjsstomp.steps.followers.StepSamples;
import io.github.sockjsstomp.timing.ReplyFeed;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.StepOffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;

/**
 * The steps of a stepped run (a thread group of one thread of its own): sets up the run's {@link Stepper}, which
 * the send samplers' scheduled senders (rate steps) and the session samplers (users steps) of the run follow,
 * then makes one sample of each step as its verdict is known (failed when the step broke the service level,
 * response code {@code broke-server}, {@code broke-machine} or {@code broke-generator}). Each verdict and the
 * run's answer are said on the console; when the steps are over (or stopped, {@code stopOnBreak}) it shuts the test
 * down as JMeter's Shutdown does, so the books and logs are flushed.
 */
public class StompStepsSampler extends StompSampler {

    /**
     * How often consume steps tell the consumers their offer: a ramp moves in changes this small, and a step's hold
     * begins with the previous one's time for at most this long.
     */
    private static final long CONSUME_OFFER_MILLIS = 20;

    /** How long one sample waits for a step's verdict before it is not reported (JMeter sees its Stop). */
    private static final long POLL_MILLIS = 1000;

    private final BlockingQueue<SampleResult> verdicts = new LinkedBlockingQueue<>();

    public StompStepsSampler() {
        super(List.of(
                STEP_KIND,
                STEPS,
                STEP_RAMP_SECONDS,
                STEP_HOLD_SECONDS,
                STEPS_START,
                STOP_ON_BREAK,
                SLO_P50_MILLIS,
                SLO_P99_MILLIS,
                SLO_P999_MILLIS,
                SLO_LOST_PERCENT,
                SLO_FAILED_PERCENT,
                SLO_CONNECT_FAILED_PERCENT,
                SLO_CONNECT_P99_MILLIS,
                SLO_HEARTBEAT_MISSES,
                REPLY_TIMEOUT_MILLIS,
                STEPS_LOG));
    }

    /**
     * The steps as the sampler's parameters give them, read and checked: what cannot be used is a ConfigError naming
     * the parameter, and then {@code plan} is null.
     */
    private record Settings(
            StepPlan plan,
            StepsStart start,
            ServiceLevel level,
            boolean stopOnBreak,
            long settleMillis,
            String stepsLogFile) {

        static Settings read(ParameterReader params) {
            StepKind kind = params.read(STEP_KIND);
            String stepsText = params.read(STEPS);
            List<Double> offers = List.of();
            try {
                offers = StepPlan.parse(stepsText, kind);
            } catch (IllegalArgumentException e) {
                params.error(STEPS.name, stepsText, e.getMessage());
            }
            if (kind == StepKind.RATE) {
                refuseAMixOfRates(params, stepsText);
            }
            if (kind == StepKind.LOOPING) {
                refuseABlockingLoop(params, stepsText);
            }
            if (kind == StepKind.CONSUME && JMeterUtils.getJMeterProperties() != null) {
                refuseConsumeStepsWithoutAConsumer(
                        params, JMeterUtils.getProperty("ack"), JMeterUtils.getProperty("consumeMillis"));
            }
            long rampMillis = Math.round(params.read(STEP_RAMP_SECONDS) * 1000);
            long holdMillis = Math.round(params.read(STEP_HOLD_SECONDS) * 1000);
            StepsStart start = StompStepsSampler.start(params, params.read(STEPS_START), kind);
            ServiceLevel level = serviceLevel(params);
            boolean stopOnBreak = params.read(STOP_ON_BREAK);
            long settleMillis = params.read(REPLY_TIMEOUT_MILLIS) + 1500;
            StepPlan plan = params.hasErrors() ? null : new StepPlan(kind, offers, rampMillis, holdMillis);
            return new Settings(
                    plan,
                    start,
                    level,
                    stopOnBreak,
                    settleMillis,
                    params.read(STEPS_LOG).trim());
        }
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        Settings read = Settings.read(params);
        Run run = joinRun(0);
        if (params.hasErrors()) {
            return;
        }
        StepPlan plan = read.plan();
        StepsStart start = read.start();
        ServiceLevel level = read.level();
        boolean stopOnBreak = read.stopOnBreak();
        String file = read.stepsLogFile();
        String engine = EngineName.current();
        StepsLog stepsLog;
        try {
            stepsLog = new StepsLog(
                    file.isEmpty() ? nullFile() : EngineName.timingLogFor(Path.of(file), engine),
                    run.id(),
                    EngineName.fileSafe(engine));
        } catch (IOException | RuntimeException e) {
            params.error(STEPS_LOG.name, file, "cannot be written: " + e.getMessage());
            return;
        }
        StandardJMeterEngine jmeter = JMeterContextService.getContext().getEngine();
        Stepper.Settings settings = new Stepper.Settings(
                plan,
                start,
                level,
                GeneratorCheck.DEFAULT,
                stopOnBreak,
                read.settleMillis(),
                SharedStompClients.IO_THREAD_PREFIX);
        Stepper made = new Stepper(
                settings,
                run.tracker().steps(),
                run.capacity(),
                run.expectedUsers(),
                () -> new GeneratorQueues(run.timingLogBacklog(), run.feed().queued(), ReplyFeed.CAPACITY),
                stepsLog,
                new StepSamples(label, verdicts),
                () -> {
                    if (jmeter != null) {
                        jmeter.stopTest(false);
                    }
                });
        StepOffer first = run.adoptSteps(made);
        if (first != made) {
            params.problem("'" + label + "': a run has one steps sampler, in a thread group of one thread; "
                    + "this one is a second (" + first + ")");
            return;
        }
        Stepper stepper = made;
        run.atFinish(stepper::finish);
        if (plan.kind() == StepKind.CONSUME) {
            stepper.tellOffer(CONSUME_OFFER_MILLIS, run.consumeTime()::millis);
        }
        stepper.start();
        RunReports.say("stomp steps: " + plan + ", from " + startWords(start) + "; " + level
                + (stopOnBreak ? "; stops one step after a break" : "") + "; steps log "
                + (file.isEmpty() ? "none" : stepsLog.path()) + "; " + stepper.machineWords());
    }

    /**
     * Rate steps set the senders' rate, so send.jmx's {@code messagesPerSecond} typed beside them would be ignored in
     * silence: both typed, the test stops saying which one sets the rate.
     */
    private static void refuseAMixOfRates(ParameterReader params, String stepsText) {
        if (JMeterUtils.getJMeterProperties() == null) {
            return;
        }
        String messagesPerSecond = JMeterUtils.getProperty("messagesPerSecond");
        if (messagesPerSecond != null) {
            params.error(
                    STEPS.name,
                    stepsText,
                    "the steps set the senders' rate (messages per second), and messagesPerSecond="
                            + messagesPerSecond.trim() + " would be ignored: give one of them, not both");
        }
        String pacing = JMeterUtils.getProperty("pacing");
        if (pacing != null && (pacing.trim().equals("ctt") || pacing.trim().equals("fixed"))) {
            params.error(
                    STEPS.name,
                    stepsText,
                    "rate steps change the scheduled sender's rate; pacing=" + pacing + " has no scheduled sender "
                            + "(leave pacing at schedule)");
        }
    }

    /**
     * Consume steps step the time the consumers take before their ACK, as the plans' {@code ack} and {@code
     * consumeMillis} properties make them (a plan of your own gives them as properties too): with ack auto there is
     * no consumer to slow, and a {@code consumeMillis} would be overridden by the steps.
     */
    static void refuseConsumeStepsWithoutAConsumer(ParameterReader params, String ack, String consumeMillis) {
        String mode = ack == null ? "auto" : ack.trim();
        if (mode.equalsIgnoreCase("auto") || mode.isEmpty()) {
            params.error(
                    STEP_KIND.name,
                    StepKind.CONSUME.parameter,
                    "consume steps step the consumers' time per message before their ACK, and ack=" + mode
                            + " acknowledges nothing: set ack=client-individual or ack=client");
        }
        if (consumeMillis != null
                && !consumeMillis.trim().isEmpty()
                && !consumeMillis.trim().equals("0")) {
            params.error(
                    STEP_KIND.name,
                    StepKind.CONSUME.parameter,
                    "the steps set the consumers' time per message, and consumeMillis=" + consumeMillis.trim()
                            + " would be ignored: give the times in steps (ms per message), not consumeMillis");
        }
    }

    /** Looping-users steps let the closed loop's users loop; loop=blocking has no closed loop to follow them. */
    private static void refuseABlockingLoop(ParameterReader params, String stepsText) {
        String loop = JMeterUtils.getJMeterProperties() == null ? null : JMeterUtils.getProperty("loop");
        if (loop != null && loop.trim().equals("blocking")) {
            params.error(
                    STEPS.name,
                    stepsText,
                    "steps of looping users step the closed loop's users; loop=blocking has none (leave loop at "
                            + "closed)");
        }
    }

    private static ServiceLevel serviceLevel(ParameterReader params) {
        return new ServiceLevel(
                params.read(SLO_P50_MILLIS),
                params.read(SLO_P99_MILLIS),
                params.read(SLO_P999_MILLIS),
                params.read(SLO_LOST_PERCENT),
                params.read(SLO_FAILED_PERCENT),
                params.read(SLO_CONNECT_FAILED_PERCENT),
                params.read(SLO_CONNECT_P99_MILLIS),
                params.read(SLO_HEARTBEAT_MISSES));
    }

    /** Where a steps log goes when none is wanted: the rows are still said on the console. */
    private static Path nullFile() throws IOException {
        Path file = Files.createTempFile("stomp-steps", ".csv");
        file.toFile().deleteOnExit();
        return file;
    }

    private static StepsStart start(ParameterReader params, String text, StepKind kind) {
        long testStart = JMeterContextService.getTestStartTime();
        StepsStart start;
        try {
            start = StepsStart.parse(text, testStart > 0 ? testStart : System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            params.error(STEPS_START.name, text, e.getMessage());
            return null;
        }
        if (start.online() && kind == StepKind.USERS) {
            params.error(
                    STEPS_START.name,
                    text,
                    "users steps bring their users online step by step: give +seconds or an epoch time in ms");
        }
        return start;
    }

    private static String startWords(StepsStart start) {
        if (start.online()) {
            return start.toString();
        }
        return Instant.ofEpochMilli(start.epochMs()) + " (" + (start.epochMs() - System.currentTimeMillis())
                + " ms from now)";
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        SampleResult verdict = verdicts.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (verdict != null) {
            return verdict;
        }
        SampleResult nothing = new SampleResult();
        nothing.setIgnore();
        return nothing;
    }
}
