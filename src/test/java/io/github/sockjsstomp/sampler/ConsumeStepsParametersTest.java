package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** stepKind=consume steps the consumers of acknowledging subscriptions: the plans' ack and consumeMillis decide. */
class ConsumeStepsParametersTest {

    private static ParameterReader reader() {
        return new ParameterReader(new JavaSamplerContext(new Arguments()));
    }

    @ParameterizedTest(name = "ack={0} consumeMillis={1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "null",
            value = {
                "client-individual|null",
                "client|0",
                "client-individual| ",
            })
    void consumersThatAcknowledgeAreStepped(String ack, String consumeMillis) {
        ParameterReader params = reader();
        StompStepsSampler.refuseConsumeStepsWithoutAConsumer(params, ack, consumeMillis);
        assertThat(params.errors()).isEmpty();
    }

    @ParameterizedTest(name = "ack={0} consumeMillis={1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "null",
            value = {
                "null|null|Parameter 'stepKind' has value 'consume': consume steps step the consumers' time per "
                        + "message before their ACK, and ack=auto acknowledges nothing",
                "auto|null|Parameter 'stepKind' has value 'consume': consume steps step the consumers' time per "
                        + "message before their ACK, and ack=auto acknowledges nothing",
                "client-individual|20|Parameter 'stepKind' has value 'consume': the steps set the consumers' time "
                        + "per message, and consumeMillis=20 would be ignored",
            })
    void withoutAConsumerToSlowOrWithATimeOfItsOwnTheyAreAConfigError(String ack, String consumeMillis, String error) {
        ParameterReader params = reader();
        StompStepsSampler.refuseConsumeStepsWithoutAConsumer(params, ack, consumeMillis);
        assertThat(params.errors()).singleElement().asString().startsWith(error);
    }
}
