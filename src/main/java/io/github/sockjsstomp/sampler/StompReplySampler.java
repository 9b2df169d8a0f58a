package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.timing.ReplyFeed;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.TimingRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each timed message as a row of its own, for JMeter's listeners (Aggregate Report, HTML dashboard, Backend
 * Listener, View Results Tree): each sample is one finished message of the run, from any thread, labelled
 * {@code reply <destination as the plan writes it>} ({@code replyLabel}), its time the message's send and its
 * elapsed time the reply latency rounded to the millisecond; a message LOST or FAILED is a failed sample with that
 * response code and the reason. Where someone can read them (JMeter's GUI, a results file that saves them) a row
 * carries the SEND as its request and the reply as its response data; a headless run keeps neither. The plans run
 * it in a thread group of its own (one thread) as long as the senders, and keep their senders' rows out of the
 * listeners; a sample that finds nothing within {@code waitMillis} is not reported. Replies that complete in the
 * drain after the last sender stopped are in the timing log only.
 */
public class StompReplySampler extends StompSampler {

    private static final Logger log = LoggerFactory.getLogger(StompReplySampler.class);
    static final String LOST = "LOST";
    static final String FAILED = "FAILED";

    /** This sampler's end of the run's finished messages, once setupTest opened them for it; null before. */
    private ReplyFeed.Taker feed;

    /** Longest wait for the next finished message; a sample that finds none is not reported. */
    private long waitMillis = StompParameters.WAIT_MILLIS.defaultValue;

    private ReplyLabel labels = StompParameters.REPLY_LABEL.defaultValue;
    private Run run;
    /** When the test's other threads were first seen all over ({@link System#nanoTime()}); 0 while they run. */
    private long othersOverNanos;
    /** Whether a row carries the SEND and the reply: only where someone can read them. */
    private boolean describe;

    public StompReplySampler() {
        super(List.of(StompParameters.WAIT_MILLIS, StompParameters.REPLY_LABEL));
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
            stopOnceTheRestIsOver();
            SampleResult nothing = new SampleResult();
            nothing.setIgnore();
            return nothing;
        }
        return sampleOf(finished, labels, describe);
    }

    /**
     * Ends this thread once the test's other threads have all started and ended and their messages have their
     * outcomes (or the run's longest drain has passed since): a plan whose senders stop on their own (a count of
     * messages, not a duration) ends when they do, and a message answered just before they stopped still gets its
     * row. Its thread group's own duration is only a backstop.
     */
    private void stopOnceTheRestIsOver() {
        JMeterContextService.ThreadCounts counts = JMeterContextService.getThreadCounts();
        boolean othersOver =
                counts.activeThreads <= 1 && counts.startedThreads >= JMeterContextService.getTotalThreads();
        if (!othersOver) {
            othersOverNanos = 0;
            return;
        }
        long now = System.nanoTime();
        if (othersOverNanos == 0) {
            othersOverNanos = now;
        }
        boolean settled = run.books().pending() == 0;
        if (settled || now - othersOverNanos > TimeUnit.MILLISECONDS.toNanos(run.longestDrainMillis())) {
            JMeterThread self = JMeterContextService.getContext().getThread();
            if (self != null) {
                self.stop();
            }
        }
    }

    /** Opens the run's feed: finished messages are kept for this sampler from now on. */
    @Override
    protected void setUp(ParameterReader params, String label) {
        run = joinRun(0);
        ReplyFeed runFeed = run.feed();
        waitMillis = params.read(StompParameters.WAIT_MILLIS);
        labels = params.read(StompParameters.REPLY_LABEL);
        describe = Sample.contentsWanted();
        if (!params.hasErrors()) {
            feed = runFeed.open(describe);
        }
    }

    /** A row for the message, its label the destination as sent, without its contents. */
    static SampleResult sampleOf(TimingRecord record, long finishedMillis) {
        return sampleOf(new ReplyFeed.Finished(record, finishedMillis), ReplyLabel.SENT, false);
    }

    /**
     * @param describe whether the row carries the SEND as its request and the reply as its response data (when
     *     the message kept them)
     */
    static SampleResult sampleOf(ReplyFeed.Finished finished, ReplyLabel labels, boolean describe) {
        TimingRecord record = finished.record();
        long finishedMillis = finished.finishedMillis();
        SampleResult result = Sample.newResult(labels.of(finished.destinationAsWritten(), record.destination()));
        long sentMillis = record.sentEpochMicros() / 1000;
        result.setSentBytes(record.bytes());
        switch (record.outcome()) {
            case ANSWERED -> {
                // Rounded, not cut: cut, every row of a sub-millisecond server read about half a millisecond low.
                long elapsed = Math.round(record.latencyMicros() / 1000.0);
                Sample.times(result, sentMillis, elapsed);
                result.setLatency(elapsed);
                Sample.ok(
                        result,
                        "Reply to " + record.msgId() + " from " + record.sender() + " received by "
                                + record.receiver());
            }
            case LOST -> {
                // The time it waited in vain, up to when it was declared lost.
                Sample.times(result, sentMillis, Math.max(0, finishedMillis - sentMillis));
                Sample.fail(
                        result,
                        LOST,
                        "No reply to " + record.msgId() + " from " + record.sender() + ": " + record.detail());
            }
            default -> {
                Sample.times(result, sentMillis, 0);
                Sample.fail(
                        result, FAILED, record.msgId() + " from " + record.sender() + " failed: " + record.detail());
            }
        }
        if (describe && finished.sent() != null) {
            result.setSamplerData(finished.sent().requestText());
        }
        if (describe && finished.reply() != null) {
            result.setResponseData(finished.reply().payload());
            result.setResponseHeaders(HeaderList.describe(finished.reply().headers()));
            result.setBodySize((long) finished.reply().payload().length);
        } else {
            // What setResponseData(text, "UTF-8") does, without looking the charset up by its name for every row.
            result.setResponseData(record.msgId().getBytes(StandardCharsets.UTF_8));
            result.setDataEncoding(StandardCharsets.UTF_8.name());
        }
        return result;
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
