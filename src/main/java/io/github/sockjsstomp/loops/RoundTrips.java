package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.samples.Sample;
import java.util.Queue;
import org.apache.jmeter.samplers.SampleResult;

/**
 * What one closed-loop sample gathered: the round trips the thread's users finished answered in it, their
 * latencies, the messages it sent and the time it waited. A round trip LOST or FAILED is a failed sample of its own
 * with its code ({@link #failures}): JMeter counts at most one error per sample, whatever its count, so a sample of
 * 100 round trips with 3 lost would show one error where there were three.
 */
final class RoundTrips {

    private final String label;
    private final Queue<SenderRow> failures;
    int answered;
    long latencyMicrosSum;
    long worstLatencyMicros;
    int sent;
    long bytes;
    long idleNanos;
    /** JMeter's Stop ended the sample. */
    boolean stopped;

    RoundTrips(String label, Queue<SenderRow> failures) {
        this.label = label;
        this.failures = failures;
    }

    void answered(long latencyMicros) {
        answered++;
        latencyMicrosSum += latencyMicros;
        worstLatencyMicros = Math.max(worstLatencyMicros, latencyMicros);
    }

    /** A round trip LOST or FAILED: a failed row of its own, after this sample. */
    void failed(String code, String why) {
        failures.add(new SenderRow(Sample.failedAtOnce(label, code, why), true));
    }

    /** Writes the sample's count (the round trips answered), bytes, outcome and message. */
    void report(SampleResult result) {
        result.setSampleCount(answered);
        result.setSentBytes(bytes);
        Sample.ok(
                result,
                answered + (answered == 1 ? " round trip answered" : " round trips answered") + " (mean "
                        + millis(latencyMicrosSum / (double) answered) + " ms, worst " + millis(worstLatencyMicros)
                        + " ms); " + sent + " sent");
    }

    private static double millis(double micros) {
        return Math.round(micros) / 1000.0;
    }
}
