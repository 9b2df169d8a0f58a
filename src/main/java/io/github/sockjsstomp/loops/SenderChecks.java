package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.threadusers.ThreadTiming;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * What every sender checks around its messages, in one place so the three say it alike: what the server refused of
 * the thread's earlier messages (an ERROR comes after the sample that sent the message is over) and whether this
 * sample's message can be read at all.
 */
final class SenderChecks {

    private SenderChecks() {}

    /** This sample's message, or the ConfigError row that names the parameter and value that cannot be read. */
    record Read(MessageParts message, SampleResult configError) {}

    /**
     * What the server refused of the thread's messages and no sample said yet, as a failed row of its own; null when
     * nothing was. Taking it clears it.
     */
    static SampleResult refusedRow(ThreadUsers users, String label) {
        String refused = users.timing().refusals().take();
        return refused == null
                ? null
                : Sample.failedAtOnce(label, Sample.SERVER_ERROR, ThreadTiming.refusedText(refused));
    }

    /**
     * Fails {@code sent}, a sample that sent its message, if the server refused earlier messages that no sample said
     * (in fire-and-forget the refused message's own sample was over before the ERROR came).
     */
    static void failIfRefused(ThreadUsers users, SampleResult sent) {
        String refused = users.timing().refusals().take();
        if (refused != null) {
            Sample.fail(
                    sent, Sample.SERVER_ERROR, ThreadTiming.refusedText(refused) + "; this sample's message was sent");
        }
    }

    /** Reads the sample's message from the sampler's parameters (JMeter functions in them vary per sample). */
    static Read message(SendingSampler sampler, JavaSamplerContext context, String label) {
        try {
            return new Read(sampler.message(context), null);
        } catch (IllegalArgumentException e) {
            return new Read(null, Sample.configError(label, e.getMessage()));
        }
    }
}
