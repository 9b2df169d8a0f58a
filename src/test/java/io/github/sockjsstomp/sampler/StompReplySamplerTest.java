package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.timing.SendMode.FIRE_AND_FORGET;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.timing.ReplyFeed;
import io.github.sockjsstomp.timing.TimingRecord;
import java.nio.charset.StandardCharsets;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.messaging.simp.stomp.StompHeaders;

class StompReplySamplerTest {

    private static final long SENT_MICROS = 1_795_000_000_123_456L;

    @Test
    void anAnswerIsASuccessWhoseElapsedTimeIsTheLatency() {
        SampleResult r = StompReplySampler.sampleOf(
                new TimingRecord(
                        SENT_MICROS,
                        TimingRecord.Outcome.ANSWERED,
                        "m-1",
                        2_750,
                        "alice",
                        "bob",
                        "/app/chat",
                        42,
                        "",
                        FIRE_AND_FORGET,
                        "senders #1",
                        "senders #1",
                        -1),
                0);
        assertThat(r.getSampleLabel()).isEqualTo("reply /app/chat");
        assertThat(r.isSuccessful()).isTrue();
        assertThat(r.getStartTime()).isEqualTo(SENT_MICROS / 1000);
        assertThat(r.getTime()).as("2.75 ms, rounded").isEqualTo(3);
        assertThat(r.getLatency()).isEqualTo(3);
        assertThat(r.getResponseMessage()).contains("m-1").contains("alice").contains("bob");
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "499, 0", "500, 1", "1499, 1", "2400, 2", "2500, 3"})
    void elapsedIsTheLatencyRoundedToTheMillisecondNotCut(long latencyMicros, long elapsedMillis) {
        SampleResult r = StompReplySampler.sampleOf(answered(latencyMicros, "/queue/d.17"), 0);
        assertThat(r.getTime()).isEqualTo(elapsedMillis);
    }

    @ParameterizedTest
    @CsvSource({
        "destination, reply /queue/d.{{userNumber}}",
        "sent, reply /queue/d.17",
        "one, reply",
    })
    void aRowIsLabelledAsReplyLabelSays(String replyLabel, String label) {
        var finished = new ReplyFeed.Finished(answered(1_000, "/queue/d.17"), 0, "/queue/d.{{userNumber}}", null, null);
        SampleResult r = StompReplySampler.sampleOf(finished, ReplyLabel.of(replyLabel), false);
        assertThat(r.getSampleLabel()).isEqualTo(label);
    }

    @Test
    void aRowCarriesTheSendAsItsRequestAndTheReplyAsItsResponseWhereSomeoneCanReadThem() {
        StompHeaders sendHeaders = new StompHeaders();
        sendHeaders.setDestination("/app/echo");
        sendHeaders.set("x-msg-id", "m-1");
        var sent = new OutgoingMessage(
                null, "/app/echo", sendHeaders, 1, "m-1", "hello m-1".getBytes(StandardCharsets.UTF_8), 0);
        StompHeaders replyHeaders = new StompHeaders();
        replyHeaders.set("x-msg-id", "m-1");
        var reply = new IncomingMessage(
                null, "/user/queue/echo", replyHeaders, "echo: hello m-1".getBytes(StandardCharsets.UTF_8), 0);
        var finished = new ReplyFeed.Finished(answered(1_000, "/app/echo"), 0, "/app/echo", sent, reply);

        SampleResult described = StompReplySampler.sampleOf(finished, ReplyLabel.DESTINATION, true);
        assertThat(described.getSamplerData())
                .startsWith("SEND /app/echo\n")
                .contains("x-msg-id:m-1")
                .endsWith("hello m-1");
        assertThat(described.getResponseDataAsString()).isEqualTo("echo: hello m-1");
        assertThat(described.getResponseHeaders()).contains("x-msg-id:m-1");

        SampleResult headless = StompReplySampler.sampleOf(finished, ReplyLabel.DESTINATION, false);
        assertThat(headless.getSamplerData()).as("nobody reads it headless").isNullOrEmpty();
        assertThat(headless.getResponseDataAsString()).isEqualTo("m-1");
        assertThat(headless.getDataEncodingNoDefault()).isEqualTo("UTF-8");
    }

    private static TimingRecord answered(long latencyMicros, String destination) {
        return new TimingRecord(
                SENT_MICROS,
                TimingRecord.Outcome.ANSWERED,
                "m-1",
                latencyMicros,
                "alice",
                "alice",
                destination,
                42,
                "",
                FIRE_AND_FORGET,
                "senders #1",
                "senders #1",
                -1);
    }

    @Test
    void aLostMessageFailsWithTheTimeItWaited() {
        long sentMillis = SENT_MICROS / 1000;
        SampleResult r = StompReplySampler.sampleOf(
                new TimingRecord(
                        SENT_MICROS,
                        TimingRecord.Outcome.LOST,
                        "m-2",
                        -1,
                        "alice",
                        "",
                        "/app/echo",
                        42,
                        "timeout",
                        FIRE_AND_FORGET,
                        "senders #1",
                        "",
                        -1),
                sentMillis + 5_000);
        assertThat(r.isSuccessful()).isFalse();
        assertThat(r.getResponseCode()).isEqualTo("LOST");
        assertThat(r.getResponseMessage()).contains("timeout");
        assertThat(r.getTime()).isEqualTo(5_000);
    }

    @Test
    void aFailedSendFailsAtOnce() {
        SampleResult r = StompReplySampler.sampleOf(
                new TimingRecord(
                        SENT_MICROS,
                        TimingRecord.Outcome.FAILED,
                        "m-3",
                        -1,
                        "alice",
                        "",
                        "/app/echo",
                        42,
                        "ConnectionLost: reset",
                        FIRE_AND_FORGET,
                        "senders #1",
                        "",
                        -1),
                0);
        assertThat(r.getResponseCode()).isEqualTo("FAILED");
        assertThat(r.getResponseMessage()).contains("ConnectionLost: reset");
        assertThat(r.getTime()).isZero();
    }
}
