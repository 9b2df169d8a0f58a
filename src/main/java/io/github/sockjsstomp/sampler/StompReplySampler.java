package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.timing.ReplyFeed;
import io.github.sockjsstomp.timing.TimingRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replies as samples of their own, for JMeter's listeners (Aggregate Report, HTML dashboard, Backend
 * Listener): each sample is one finished timed message of the run, from any thread, labelled
 * {@code reply <destination>}, its time the message's send and its elapsed time the reply latency; a message
 * LOST or FAILED is a failed sample with that response code and the reason. A fire-and-forget sender's
 * replies, otherwise seen only in the timing log, show up live. Opt-in: put it in a thread group of its own
 * (one thread) that runs as long as the senders; a sample that finds nothing within {@code waitMillis} is not
 * reported. Replies that complete in the drain after the last sender stopped are in the timing log only.
 */
public class StompReplySampler extends StompSampler {

    private static final Logger log = LoggerFactory.getLogger(StompReplySampler.class);
    static final String REPLY_PREFIX = "reply ";
    static final String LOST = "LOST";
    static final String FAILED = "FAILED";

    private static final boolean STAMP_IS_START = JMeterUtils.getJMeterProperties() != null
            && JMeterUtils.getPropDefault("sampleresult.timestamp.start", false);

    /** This sampler's end of the run's finished messages, once setupTest opened them for it; null before. */
    private ReplyFeed.Taker feed;

    /** Longest wait for the next finished message; a sample that finds none is not reported. */
    private long waitMillis = StompParameters.WAIT_MILLIS.defaultValue;

    public StompReplySampler() {
        super(List.of(StompParameters.WAIT_MILLIS));
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) {
        ReplyFeed.Finished finished;
        try {
            finished = feed.take(waitMillis);
        } catch (InterruptedException e) {
            // JMeter's Stop: no sample to report, and the flag stays for JMeter (or our interrupt()) to see.
            Thread.currentThread().interrupt();
            finished = null;
        }
        if (finished == null) {
            SampleResult nothing = new SampleResult();
            nothing.setIgnore();
            return nothing;
        }
        return sampleOf(finished.record(), finished.finishedMillis());
    }

    /** Opens the run's feed: finished messages are kept for this sampler from now on. */
    @Override
    protected void setUp(ParameterReader params, String label) {
        ReplyFeed runFeed = joinRun(0).feed();
        waitMillis = params.read(StompParameters.WAIT_MILLIS);
        if (!params.hasErrors()) {
            feed = runFeed.open();
        }
    }

    /** @param finishedMillis when the message finished (a LOST one: when it was declared lost) */
    static SampleResult sampleOf(TimingRecord record, long finishedMillis) {
        SampleResult result = Sample.newResult(REPLY_PREFIX + record.destination());
        long sentMillis = record.sentEpochMicros() / 1000;
        result.setSentBytes(record.bytes());
        switch (record.outcome()) {
            case ANSWERED -> {
                long elapsed = record.latencyMicros() / 1000;
                times(result, sentMillis, elapsed);
                result.setLatency(elapsed);
                Sample.ok(
                        result,
                        "Reply to " + record.msgId() + " from " + record.sender() + " received by "
                                + record.receiver());
            }
            case LOST -> {
                // The time it waited in vain, up to when it was declared lost.
                times(result, sentMillis, Math.max(0, finishedMillis - sentMillis));
                Sample.fail(
                        result,
                        LOST,
                        "No reply to " + record.msgId() + " from " + record.sender() + ": " + record.detail());
            }
            default -> {
                times(result, sentMillis, 0);
                Sample.fail(
                        result, FAILED, record.msgId() + " from " + record.sender() + " failed: " + record.detail());
            }
        }
        result.setResponseData(record.msgId(), StandardCharsets.UTF_8.name());
        return result;
    }

    /** Starts at the send: JMeter's stamp is the start or, by default, the end (sampleresult.timestamp.start). */
    static void times(SampleResult result, long startMillis, long elapsedMillis) {
        result.setStampAndTime(STAMP_IS_START ? startMillis : startMillis + elapsedMillis, elapsedMillis);
    }

    @Override
    protected void tearDown() {
        if (feed != null) {
            ReplyFeed.Unsampled unsampled = feed.close();
            feed = null;
            if (unsampled.dropped() > 0) {
                log.warn(
                        "{} finished messages did not become reply samples: the replies thread fell behind and the "
                                + "hand-off was full; the timing log has them all",
                        unsampled.dropped());
            }
            if (unsampled.left() > 0) {
                log.info(
                        "{} finished messages were still waiting to become reply samples when the test ended",
                        unsampled.left());
            }
        }
    }
}
