package io.github.sockjsstomp.bench.arguments;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;

/**
 * What JMeter charges a Java Request for its argument list, apart from any client: a client that does nothing, in a
 * plan whose sampler carries the argument list under test (bench/argument_cost.py makes the variants). After
 * {@code probeWarmUp} samples it reads its JMeter thread's CPU time, and after {@code probeSamples} more it prints
 * the CPU per sample between the two (on the JMeter thread: teardownTest runs on another), which is JMeter's own
 * per-sample work (the argument list evaluated into a context, the sampler's running version restored, the
 * listeners told). It reads its settings from JMeter properties, not
 * arguments, so that the variant without arguments has none. Bench code, never shipped.
 */
public class ArgumentCostProbe extends AbstractJavaSamplerClient {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long warmUp = JMeterUtils.getPropDefault("probeWarmUp", 200_000);
    private final long measured = JMeterUtils.getPropDefault("probeSamples", 500_000);
    private long samples;
    private long cpuAtWarmUp;
    private int argumentsSeen;

    @Override
    public SampleResult runTest(JavaSamplerContext context) {
        if (++samples == warmUp) {
            cpuAtWarmUp = THREADS.getCurrentThreadCpuTime();
            argumentsSeen = count(context);
        } else if (samples == warmUp + measured) {
            double nanos = (THREADS.getCurrentThreadCpuTime() - cpuAtWarmUp) / (double) measured;
            System.out.printf(
                    "argument cost: %d arguments, %d samples, %.3f us per sample%n",
                    argumentsSeen, measured, nanos / 1000);
        }
        SampleResult result = new SampleResult();
        result.sampleStart();
        result.setSuccessful(true);
        result.sampleEnd();
        return result;
    }

    private static int count(JavaSamplerContext context) {
        int n = 0;
        for (var names = context.getParameterNamesIterator(); names.hasNext(); names.next()) {
            n++;
        }
        return n;
    }
}
