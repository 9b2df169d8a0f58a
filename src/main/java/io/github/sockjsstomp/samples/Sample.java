package io.github.sockjsstomp.samples;

import io.github.sockjsstomp.client.ConnectStepResult;
import io.github.sockjsstomp.client.Failure;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sample, what JMeter records: the one shape of its timing ({@link #timed}) and the helpers that keep every
 * sample self-describing (label, success, response code, message, bytes). Below the samplers, the thread's users and
 * the senders' loops, since each of them makes samples.
 */
public final class Sample {

    private static final Logger log = LoggerFactory.getLogger(Sample.class);
    public static final String CODE_OK = "200";
    public static final String CONFIG_ERROR = "ConfigError";
    public static final String SAMPLER_ERROR = "SamplerError";
    public static final String INTERRUPTED = "Interrupted";
    public static final String SEND_FAILED = "SendFailed";
    public static final String REPLY_TIMEOUT = "ReplyTimeout";
    /** The server refused earlier frames of the thread's users with ERROR frames (the session stayed open). */
    public static final String SERVER_ERROR = "ServerError";

    public static final String RECEIVE_TIMEOUT = "ReceiveTimeout";

    private static final boolean STAMP_IS_START = JMeterUtils.getJMeterProperties() != null
            && JMeterUtils.getPropDefault("sampleresult.timestamp.start", false);

    private Sample() {}

    /** What a timed sample does between its start and its end. */
    @FunctionalInterface
    public interface Body {
        void run(SampleResult result) throws InterruptedException;
    }

    /**
     * The one shape of a timed sample (JMeter's {@code SleepTest}): started in {@code try}, ended once in
     * {@code finally}. An interrupt (JMeter's Stop, Shutdown, Sample Timeout) keeps the time actually waited,
     * fails the sample as Interrupted and restores the thread's flag; anything else that escapes the body is a
     * SamplerError with the time it took.
     */
    public static SampleResult timed(String label, Body body) {
        return ended(started(label), null, body, true);
    }

    /**
     * The end of a timed sample that {@link #started} on one thread and ends on another, whichever thread ends the
     * wait it was started for (an I/O thread, a timer): as {@link #timed}, but {@code failure} (what ended the wait
     * exceptionally, null if nothing did) comes first, and an interrupt fails the sample without touching the flag
     * of a thread that was never interrupted.
     */
    public static SampleResult completed(SampleResult result, Throwable failure, Body body) {
        return ended(result, failure, body, false);
    }

    /**
     * Runs {@code body} unless {@code failure} (what ended the wait, unwrapped) already failed the sample, then ends
     * it once; {@code onItsThread}: the sample's own thread, whose interrupt flag an interrupt restores.
     */
    private static SampleResult ended(SampleResult result, Throwable failure, Body body, boolean onItsThread) {
        try {
            Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause()
                    : failure;
            if (cause instanceof InterruptedException) {
                throw (InterruptedException) cause;
            } else if (cause != null) {
                log.warn("{}: sample failed", result.getSampleLabel(), cause);
                fail(result, SAMPLER_ERROR, Failure.describe(cause));
            } else {
                body.run(result);
            }
        } catch (InterruptedException e) {
            fail(result, INTERRUPTED, "Interrupted (JMeter's Stop, Shutdown or Sample Timeout)");
            if (onItsThread) {
                Thread.currentThread().interrupt();
            }
        } catch (RuntimeException e) {
            log.warn("{}: sample failed", result.getSampleLabel(), e);
            fail(result, SAMPLER_ERROR, Failure.describe(e));
        } finally {
            result.sampleEnd();
        }
        return result;
    }

    /** A sample whose time starts now, to be ended by {@link #completed}. */
    public static SampleResult started(String label) {
        SampleResult result = newResult(label);
        result.sampleStart();
        return result;
    }

    /**
     * Takes the time a sample slept inside (between the scheduled sender's wake-ups) out of its elapsed time, into
     * JMeter's idle time: measured in nanoseconds and taken once, so the rounding of many short sleeps to whole
     * milliseconds cannot add up (nor make the elapsed time negative).
     */
    public static void idle(SampleResult result, long idleNanos) {
        long span = result.getEndTime() - result.getStartTime();
        long idle = Math.min(span, Math.round(idleNanos / 1e6));
        if (idle > 0) {
            result.setIdleTime(idle);
            result.setEndTime(result.getEndTime()); // JMeter computes elapsed = end - start - idle here
        }
    }

    /**
     * Whether a sample's request text (its sampler data) can be seen by anyone: always in the GUI (View
     * Results Tree); headless only when the results file saves it. Building it costs a copy per message.
     */
    public static boolean requestTextWanted() {
        return !JMeter.isNonGUI() || SampleSaveConfiguration.staticConfig().saveSamplerData();
    }

    /**
     * Whether a message row's request and response (the SEND, the reply) can be seen by anyone: in the GUI, or in a
     * results file that saves either. Keeping them costs a reference per message in flight, and keeps each alive
     * until its outcome.
     */
    public static boolean contentsWanted() {
        SampleSaveConfiguration saved = SampleSaveConfiguration.staticConfig();
        return !JMeter.isNonGUI() || saved.saveSamplerData() || saved.saveResponseData();
    }

    /** Whether the headers of a reply can be seen by anyone: in the GUI, or in a results file that saves them. */
    public static boolean responseHeadersWanted() {
        return !JMeter.isNonGUI() || SampleSaveConfiguration.staticConfig().saveResponseHeaders();
    }

    /**
     * A sample that started before it was taken (a message's outcome, a silent session's close): JMeter's stamp
     * is its start or, by default, its end (sampleresult.timestamp.start).
     */
    public static void times(SampleResult result, long startMillis, long elapsedMillis) {
        result.setStampAndTime(STAMP_IS_START ? startMillis : startMillis + elapsedMillis, elapsedMillis);
    }

    public static SampleResult newResult(String label) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(label);
        result.setDataType(SampleResult.TEXT);
        result.setDataEncoding(StandardCharsets.UTF_8.name());
        return result;
    }

    public static void ok(SampleResult result, String message) {
        result.setSuccessful(true);
        result.setResponseCode(CODE_OK);
        result.setResponseMessage(message);
    }

    public static void fail(SampleResult result, String code, String message) {
        result.setSuccessful(false);
        result.setResponseCode(code);
        result.setResponseMessage(message);
    }

    /**
     * A bad value, at setup or in a value read per message: one ConfigError sample, and the test stops, since
     * every thread has the same parameters and a loop of failed samples would say nothing more.
     */
    public static SampleResult configError(String label, String message) {
        SampleResult refused = failedAtOnce(label, CONFIG_ERROR, message);
        refused.setStopTest(true);
        return refused;
    }

    /** A failure that took no time: bad configuration, a session the server dropped. */
    public static SampleResult failedAtOnce(String label, String code, String message) {
        SampleResult result = timed(label, r -> fail(r, code, message));
        result.setResponseData(message, StandardCharsets.UTF_8.name());
        return result;
    }

    /**
     * Adds a step as a sub-result with its own timing. Raw, so the parent's own clock is left alone; the
     * step's name is restored after JMeter's renaming to "parent-N", since "clientPull" says more.
     */
    public static void addStep(SampleResult parent, ConnectStepResult step) {
        SampleResult sub = newResult(step.label());
        sub.setStampAndTime(step.startEpochMillis(), step.elapsedMillis());
        sub.setSuccessful(step.ok());
        sub.setResponseCode(step.code());
        sub.setResponseMessage(step.message());
        if (!step.body().isEmpty()) {
            sub.setResponseData(step.body(), StandardCharsets.UTF_8.name());
        }
        sub.setBodySize(step.bytes());
        parent.addRawSubResult(sub);
        sub.setSampleLabel(step.label());
        parent.setBodySize(parent.getBodySizeAsLong() + step.bytes());
    }
}
