package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.timing.SendMode.FIRE_AND_FORGET;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.timing.TimingRecord;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

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
        assertThat(r.getTime()).isEqualTo(2);
        assertThat(r.getLatency()).isEqualTo(2);
        assertThat(r.getResponseMessage()).contains("m-1").contains("alice").contains("bob");
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
