package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

/** The scheduled sender's parameters as JMeter's panel lists them, and what it refuses. */
class ScheduledSendConfigTest {

    @Test
    void theScheduledSenderIsListedOffByDefault() {
        var args = new StompSendSampler().getDefaultParameters().getArgumentsAsMap();
        assertThat(args).containsEntry("ratePerThread", "0").containsEntry("tickMillis", "10")
                .containsEntry("sampleMillis", "100");
    }

    @Test
    void aScheduleWithAwaitReplyIsAConfigErrorNamingIt() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(send, SamplerHarness.context(send, Map.of("TestElement.name", "echo",
                    "timingLog", "none", "mode", "await-reply", "ratePerThread", "60")));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.isStopTest()).isTrue();
            assertThat(result.getResponseMessage()).contains("'ratePerThread' has value '60.0'")
                    .contains("fire-and-forget only");
        }
    }

    @Test
    void aBadTickIsAConfigError() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(send, SamplerHarness.context(send, Map.of("TestElement.name", "send",
                    "timingLog", "none", "ratePerThread", "60", "tickMillis", "0")));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.getResponseMessage()).contains("'tickMillis' has value '0'");
        }
    }

    @Test
    void aNegativeSampleSpanIsAConfigError() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(send, SamplerHarness.context(send, Map.of("TestElement.name", "send",
                    "timingLog", "none", "ratePerThread", "60", "sampleMillis", "-5")));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.getResponseMessage()).contains("'sampleMillis' has value '-5'");
        }
    }
}
