package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.message.AckMode;
import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.user.AckCounts;
import io.github.sockjsstomp.client.user.AckSettings;
import io.github.sockjsstomp.client.user.SteppedConsumeTime;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AckParametersTest {

    /** A reader of {@code name=value} pairs; the others at their defaults. */
    private static ParameterReader reader(String... pairs) {
        Arguments args = new Arguments();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            args.addArgument(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return new ParameterReader(new JavaSamplerContext(args));
    }

    private static AckSettings read(ParameterReader params) {
        return ConnectionParameters.acks(
                params, params.read(StompParameters.SUBSCRIBE_HEADERS), new AckCounts(), new SteppedConsumeTime());
    }

    @Test
    void byDefaultNothingIsAcknowledged() {
        ParameterReader params = reader();
        assertThat(read(params)).isSameAs(AckSettings.AUTO);
        assertThat(params.errors()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "client-individual|1|0|0",
                "client|10|25|0.1",
                "client-individual|1|0|1",
            })
    void eachModeIsTakenWithItsSettings(String ack, int every, long consumeMillis, double nackShare) {
        ParameterReader params =
                reader("ack=" + ack, "ackEvery=" + every, "consumeMillis=" + consumeMillis, "nackShare=" + nackShare);
        AckSettings settings = read(params);
        assertThat(params.errors()).isEmpty();
        assertThat(settings.mode()).isEqualTo(AckMode.parse(ack));
        assertThat(settings.ackEvery()).isEqualTo(every);
        assertThat(settings.consumeMillis()).isEqualTo(consumeMillis);
        assertThat(settings.nackShare()).isEqualTo(nackShare);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "ack=sometimes|Parameter 'ack' has value 'sometimes': 'sometimes' is no STOMP acknowledgement mode",
                "ack=none|Parameter 'ack' has value 'none': '' is no STOMP acknowledgement mode",
                "ackEvery=0|Parameter 'ackEvery' has value '0'",
                "consumeMillis=-1|Parameter 'consumeMillis' has value '-1'",
                "nackShare=1.5|Parameter 'nackShare' has value '1.5'",
                "nackShare=-0.1|Parameter 'nackShare' has value '-0.1'",
                "nackShare=0.5|Parameter 'nackShare' has value '0.5': with ack=auto nothing is acknowledged",
                "consumeMillis=20|Parameter 'consumeMillis' has value '20': with ack=auto",
            })
    void aBadValueIsAConfigErrorNamingTheParameterAndTheValue(String pair, String error) {
        ParameterReader params = reader(pair);
        assertThat(read(params)).isNull();
        assertThat(params.errors()).singleElement().asString().startsWith(error);
    }

    @Test
    void anAckInTheSubscribeHeadersMustSayWhatAckSays() {
        ParameterReader same = reader("ack=client", "subscribeHeaders=ack:client;prefetch-count:10");
        assertThat(read(same).mode()).isEqualTo(AckMode.CLIENT);
        assertThat(same.errors()).isEmpty();

        ParameterReader differ = reader("subscribeHeaders=prefetch-count:10;ack:client-individual");
        assertThat(read(differ)).isNull();
        assertThat(differ.errors())
                .singleElement()
                .asString()
                .startsWith("Parameter 'subscribeHeaders' has value 'prefetch-count:10;ack:client-individual': it "
                        + "says ack:client-individual and ack is auto");
        assertThat(SubscribeHeaders.parse("ack:auto").ackMode()).isEqualTo(AckMode.AUTO);
    }
}
