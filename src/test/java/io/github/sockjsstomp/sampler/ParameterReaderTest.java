package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.Transport;
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
    @CsvSource(delimiter = '|', value = {
        "80|80|",
        "' 443 '|443|",
        "''|8080|",
        "0|8080|Parameter 'port' has value '0': expected a whole number from 1 to 65535",
        "80a|8080|Parameter 'port' has value '80a': expected a whole number from 1 to 65535",
        "99999999999999999999|8080|Parameter 'port' has value '99999999999999999999': expected a whole number",
    })
    void numbersAreRangeCheckedAndBlankMeansDefault(String value, long expected, String error) {
        ParameterReader reader = reader("port", value);
        assertThat(reader.number("port", 8080, 1, 65535)).isEqualTo(expected);
        if (error == null) {
            assertThat(reader.errors()).isEmpty();
        } else {
            assertThat(reader.errors()).singleElement().asString().startsWith(error);
        }
    }

    @Test
    void parsedValuesReportTheParsersReason() {
        ParameterReader reader = reader("transport", "smoke-signals");
        assertThat(reader.parsed("transport", "websocket", Transport::fromParameter, null)).isNull();
        assertThat(reader.errors()).containsExactly("Parameter 'transport' has value 'smoke-signals': "
                + "'smoke-signals' is not a transport; expected websocket | xhr-streaming | xhr | raw");
    }

    @Test
    void requiredValuesMustNotBeBlankAndAbsentOnesTakeTheDefault() {
        ParameterReader reader = reader("host", "  ");
        reader.required("host", "localhost");
        assertThat(reader.errors()).containsExactly("Parameter 'host' is empty; it is required");
        assertThat(reader.string("endpoint", "/ws")).isEqualTo("/ws");
    }

    @Test
    void everyProblemIsKept() {
        Arguments args = new Arguments();
        args.addArgument("a", "x");
        args.addArgument("b", "y");
        ParameterReader reader = new ParameterReader(new JavaSamplerContext(args));
        reader.number("a", 1, 0, 10);
        reader.number("b", 1, 0, 10);
        assertThat(reader.errors()).hasSize(2);
        assertThat(reader.hasErrors()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"/a, /b ,,/c|3", "''|0", "/only|1"})
    void destinationsSplitOnCommas(String text, int count) {
        assertThat(AbstractStompSampler.splitDestinations(text)).hasSize(count).allSatisfy(d -> assertThat(d)
                .startsWith("/").doesNotContain(" "));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"none|''", "NONE|''", "' None '|''", "/index|/index", "''|''",
        "nonempty|nonempty"})
    void noneStandsForEmptyBecauseJMeterDropsEmptyProperties(String value, String expected) {
        assertThat(reader("indexPath", value).optional("indexPath", "/index")).isEqualTo(expected);
    }

    @Test
    void noneParsesAsEmptyForStructuredValues() {
        ParameterReader reader = reader("connectHeaders", "none");
        assertThat(reader.parsed("connectHeaders", "", io.github.sockjsstomp.client.HeaderList::parse,
                java.util.Map.of("x", "y"))).isEmpty();
        assertThat(reader.errors()).isEmpty();
    }
}
