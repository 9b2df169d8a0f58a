package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.UserTiming;
import java.util.List;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * What a sender's loop needs of the send sampler it samples for: the sampler reads the plan's parameters and owns
 * the one-message sample, the loop owns the pace. An interface, so that imports run from the samplers to the loops
 * and never back.
 */
public interface SendingSampler {

    /** The thread's users it sends on; set up before the first sample. */
    ThreadUsers users();

    /** Each user's timing, in the order of {@link #users}. */
    List<UserTiming> timings();

    /**
     * The message to send, read from the sampler's parameters for this sample.
     *
     * @throws IllegalArgumentException naming the parameter and the value that cannot be read
     */
    MessageParts message(JavaSamplerContext context);

    /** Whether anything will show a sample's request text: the GUI, or a results file that saves it. */
    boolean describesRequests();

    /** Writes {@code sent} into {@code result}: its bytes and, when shown, its request text. */
    void describeRequest(SampleResult result, OutgoingMessage sent);

    /**
     * Once per run, says that a sender none of whose messages was answered is likely misconfigured.
     *
     * @return whether {@code timing}'s user is such a sender
     */
    boolean noticeIfNoneAnswered(String label, UserTiming timing);
}
