package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SilentSessionsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|10|''",
                "0.5|10|2 4 6 8 10",
                "0.25|10|4 8",
                "0.1|30|10 20 30",
                "0.3|10|4 7 10",
                "1|3|1 2 3",
                "0.001|999|''",
            })
    void picksFloorOfUsersTimesShareEvenlySpread(double share, int users, String picked) {
        String found = String.join(
                " ",
                IntStream.rangeClosed(1, users)
                        .filter(n -> SilentSessions.picks(n, share))
                        .mapToObj(Integer::toString)
                        .toList());
        assertThat(found).isEqualTo(picked);
        assertThat(IntStream.rangeClosed(1, users)
                        .filter(n -> SilentSessions.picks(n, share))
                        .count())
                .isEqualTo((long) Math.floor(users * share + 1e-9));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "silentShare|1.5|Parameter 'silentShare' has value '1.5': expected a number from 0.0 to 1.0",
                "silentShare|-0.1|Parameter 'silentShare' has value '-0.1': expected a number from 0.0 to 1.0",
                "silentShare|NaN|Parameter 'silentShare' has value 'NaN': expected a number from 0.0 to 1.0",
                "silentAfter|-1|Parameter 'silentAfter' has value '-1': expected a number from 0.0 to 3.1536E7",
                "silentAfter|soon|Parameter 'silentAfter' has value 'soon': expected a number",
            })
    void badValuesNameTheParameterAndTheValue(String name, String value, String error) {
        Arguments args = new Arguments();
        args.addArgument(name, value);
        ParameterReader reader = new ParameterReader(new JavaSamplerContext(args));
        reader.read(name.equals("silentShare") ? StompParameters.SILENT_SHARE : StompParameters.SILENT_AFTER);
        assertThat(reader.errors()).singleElement().asString().startsWith(error);
    }
}
