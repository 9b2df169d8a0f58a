package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import java.util.Map;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scheduled sender's parameters as JMeter's panel lists them, and what it refuses. */
class ScheduledSendConfigTest {

    @Test
    void theScheduledSenderIsListedOffByDefault() {
        var args = new StompSendSampler().getDefaultParameters().getArgumentsAsMap();
        assertThat(args)
                .containsEntry("messagesPerSecondPerThread", "0")
                .containsEntry("tickMillis", "10")
                .containsEntry("sampleMillis", "100");
    }

    @Test
    void aScheduleWithAwaitReplyIsAConfigErrorNamingIt() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(
                    send,
                    SamplerHarness.context(
                            send,
                            Map.of(
                                    "TestElement.name",
                                    "echo",
                                    "timingLog",
                                    "none",
                                    "mode",
                                    "await-reply",
                                    "messagesPerSecondPerThread",
                                    "1")));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.isStopTest()).isTrue();
            assertThat(result.getResponseMessage())
                    .contains("'messagesPerSecondPerThread' has value '1.0'")
                    .contains("fire-and-forget only");
        }
    }

    @Test
    void aPlanSavedWithRatePerThreadIsAConfigErrorNamingTheNewName() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            // A plan saved before the rename: its argument has the old name, which the panel no longer lists.
            JavaSamplerContext saved =
                    SamplerHarness.context(send, Map.of("TestElement.name", "send", "timingLog", "none"));
            Arguments args = new Arguments();
            saved.getParameterNamesIterator()
                    .forEachRemaining(name -> args.addArgument(name, saved.getParameter(name)));
            args.addArgument("ratePerThread", "6000");
            int sender = harness.add(send, new JavaSamplerContext(args));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.getResponseMessage())
                    .contains("Parameter 'ratePerThread' has value '6000'")
                    .contains("use messagesPerSecondPerThread");
        }
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({"tickMillis, 0", "sampleMillis, -5"})
    void aBadTickOrSampleSpanIsAConfigErrorNamingIt(String parameter, String value) throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompSendSampler send = new StompSendSampler();
            int sender = harness.add(
                    send,
                    SamplerHarness.context(
                            send,
                            Map.of(
                                    "TestElement.name",
                                    "send",
                                    "timingLog",
                                    "none",
                                    "messagesPerSecondPerThread",
                                    "1",
                                    parameter,
                                    value)));
            SampleResult result = harness.samples(sender, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.getResponseMessage()).contains("'" + parameter + "' has value '" + value + "'");
        }
    }
}
