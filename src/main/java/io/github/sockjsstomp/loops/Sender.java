package io.github.sockjsstomp.loops;

import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;

/**
 * One way the send sampler sends: one message per sample ({@link OneMessageSender}), the scheduled sender
 * ({@link ScheduledSender}) or the closed loop ({@link ClosedLoopSender}). The sampler picks one in its setUp, as
 * JMeter's HTTP sampler picks its implementation once, so that a sample has one path and no mode is asked per sample.
 */
public interface Sender {

    /** The thread's next sample, on the JMeter thread. */
    SenderRow sample(JavaSamplerContext context, String label) throws InterruptedException;
}
