package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.Transport;
import java.util.List;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParameterReaderTest {

    private static ParameterReader reader(String name, String value) {
        Arguments args = new Arguments();
        args.addArgument(name, value);
        return new ParameterReader(new JavaSamplerContext(args));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "80|80|",
                "' 443 '|443|",
                "''|8080|",
                "0|8080|Parameter 'port' has value '0': expected a whole number from 1 to 65535",
                "80a|8080|Parameter 'port' has value '80a': expected a whole number from 1 to 65535",
                "99999999999999999999|8080|Parameter 'port' has value '99999999999999999999': expected a whole number",
            })
    void numbersAreRangeCheckedAndBlankMeansTheOneTypedDefault(String value, long expected, String error) {
        ParameterReader reader = reader("port", value);
        assertThat(reader.read(StompParameters.PORT)).isEqualTo(expected);
        if (error == null) {
            assertThat(reader.errors()).isEmpty();
        } else {
            assertThat(reader.errors()).singleElement().asString().startsWith(error);
        }
    }

    @Test
    void parsedValuesReportTheParsersReason() {
        ParameterReader reader = reader("transport", "smoke-signals");
        assertThat(reader.read(StompParameters.TRANSPORT)).isEqualTo(Transport.AUTO);
        assertThat(reader.errors())
                .containsExactly("Parameter 'transport' has value 'smoke-signals': "
                        + "'smoke-signals' is not a transport; expected " + Transport.allowedValues());
    }

    @Test
    void requiredValuesMustNotBeBlankAndAbsentOnesTakeTheDefault() {
        ParameterReader reader = reader("host", " ");
        assertThat(reader.read(StompParameters.HOST)).isEqualTo("127.0.0.1");
        assertThat(reader.errors()).containsExactly("Parameter 'host' has value ' ': it is empty; it is required");
        assertThat(reader.read(StompParameters.ENDPOINT)).isEqualTo("/ws");
    }

    @Test
    void everyProblemIsKept() {
        Arguments args = new Arguments();
        args.addArgument("port", "x");
        args.addArgument("heartbeatMillis", "-1");
        ParameterReader reader = new ParameterReader(new JavaSamplerContext(args));
        reader.read(StompParameters.PORT);
        reader.read(StompParameters.HEARTBEAT_MILLIS);
        assertThat(reader.errors()).hasSize(2);
        assertThat(reader.hasErrors()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"/a, /b ,,/c|3", "''|0", "/only|1", "none|0"})
    void destinationsSplitOnCommas(String text, int count) {
        assertThat(reader("subscribeTo", text).read(StompParameters.SUBSCRIBE_TO))
                .hasSize(count);
    }

    @Test
    void anUnknownPlaceholderIsAProblemNamingIt() {
        ParameterReader reader = reader("payload", "{\"x\":\"{{nope}}\"}");
        reader.read(StompParameters.PAYLOAD);
        assertThat(reader.errors())
                .singleElement()
                .asString()
                .contains("'payload'")
                .contains("{{nope}}");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"none|''", "NONE|''", "' None '|''", "/index|/index", "''|''", "nonempty|nonempty"})
    void noneStandsForEmptyBecauseJMeterDropsEmptyProperties(String value, String expected) {
        assertThat(reader("indexPath", value).read(StompParameters.INDEX_PATH)).isEqualTo(expected);
    }

    @Test
    void noneParsesAsEmptyForStructuredValues() {
        ParameterReader reader = reader("connectHeaders", "none");
        assertThat(reader.read(StompParameters.CONNECT_HEADERS)).isEmpty();
        assertThat(reader.errors()).isEmpty();
    }

    @Test
    void everyParameterHasOneDefaultAndThePanelShowsIt() {
        assertThat(List.of(StompParameters.SESSIONS_PER_THREAD, StompParameters.REPLIES_PER_MESSAGE))
                .extracting(p -> p.defaultText)
                .containsExactly("1", "1");
        assertThat(new StompSendSampler().getDefaultParameters().getArgumentsAsMap())
                .containsEntry("replyTimeoutMillis", "5000")
                .containsEntry("mode", "fire-and-forget")
                .doesNotContainKey("host");
    }
}
