package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.message.Template;
import java.util.List;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SubscribeHeadersParameterTest {

    private static ParameterReader reader(String value) {
        Arguments args = new Arguments();
        args.addArgument(StompParameters.SUBSCRIBE_HEADERS.name, value);
        return new ParameterReader(new JavaSamplerContext(args));
    }

    @Test
    void theSamplersThatSubscribeListItAndTheAcknowledgementsRightAfterSubscribeTo() {
        for (List<String> names : List.of(
                new StompConnectSampler()
                        .getDefaultParameters().getArgumentsAsMap().keySet().stream()
                                .toList(),
                new StompReceiveSampler()
                        .getDefaultParameters().getArgumentsAsMap().keySet().stream()
                                .toList())) {
            int subscribeTo = names.indexOf("subscribeTo");
            assertThat(names.subList(subscribeTo + 1, subscribeTo + 6))
                    .containsExactly("subscribeHeaders", "ack", "ackEvery", "consumeMillis", "nackShare");
        }
        assertThat(StompParameters.SUBSCRIBE_HEADERS.defaultText).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "prefetch-count|Parameter 'subscribeHeaders' has value 'prefetch-count': 'prefetch-count' is not a "
                        + "header; expected name:value",
                "ack:never|Parameter 'subscribeHeaders' has value 'ack:never': ack:never is no STOMP "
                        + "acknowledgement mode",
                "destination:/topic/x|Parameter 'subscribeHeaders' has value 'destination:/topic/x': destination is "
                        + "not a subscribe header here",
            })
    void aBadValueIsAConfigErrorNamingTheParameterAndTheValue(String value, String error) {
        ParameterReader params = reader(value);
        assertThat(ConnectionParameters.subscribeHeaders(params, Destinations.parse("/topic/x")))
                .isSameAs(SubscribeHeaders.NONE);
        assertThat(params.errors()).singleElement().asString().startsWith(error);
    }

    @Test
    void noneIsNoHeaders() {
        ParameterReader params = reader("none");
        assertThat(ConnectionParameters.subscribeHeaders(params, Destinations.parse("/topic/x")))
                .isSameAs(SubscribeHeaders.NONE);
        assertThat(params.errors()).isEmpty();
    }

    @Test
    void anIdGoesWithOneDestinationOnly() {
        List<Template> two = Destinations.parse("/topic/a,/topic/b");
        ParameterReader one = reader("id:mine");
        assertThat(ConnectionParameters.subscribeHeaders(one, Destinations.parse("/topic/a"))
                        .hasId())
                .isTrue();
        assertThat(one.errors()).isEmpty();

        ParameterReader both = reader("id:mine");
        ConnectionParameters.subscribeHeaders(both, two);
        assertThat(both.errors())
                .singleElement()
                .asString()
                .startsWith("Parameter 'subscribeHeaders' has value 'id:mine': an id names one subscription, and "
                        + "subscribeTo has 2 destinations");
        assertThat(ConnectionParameters.subscribeHeaders(reader("durable:true"), two)
                        .isEmpty())
                .isFalse();
    }
}
