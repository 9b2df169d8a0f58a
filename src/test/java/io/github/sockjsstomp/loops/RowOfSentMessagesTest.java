package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

/** Which send rows a replies sampler's rows stand for (replySamples=true hides them from the listeners). */
class RowOfSentMessagesTest {

    @Test
    void aRowThatSentItsMessagesOrFailedInTheWriteIsCoveredByTheReplyRows() {
        SampleResult sent = Sample.newResult("send");
        Sample.ok(sent, "SENT 12 messages");
        SampleResult writeFailed = Sample.newResult("send");
        Sample.fail(writeFailed, Sample.SEND_FAILED, "the session closed under the write");

        assertThat(ScheduledSender.rowOfSentMessages(sent)).isTrue();
        assertThat(ScheduledSender.rowOfSentMessages(writeFailed)).isTrue();
    }

    @Test
    void aRowThatIsNoMessagesOwnOutcomeStays() {
        SampleResult refused = Sample.newResult("send");
        Sample.fail(refused, Sample.SERVER_ERROR, "Unknown destination");
        SampleResult notConnected = Sample.newResult("send");
        Sample.fail(notConnected, "ConnectFailed", "connection refused");

        assertThat(ScheduledSender.rowOfSentMessages(refused)).isFalse();
        assertThat(ScheduledSender.rowOfSentMessages(notConnected)).isFalse();
    }
}
