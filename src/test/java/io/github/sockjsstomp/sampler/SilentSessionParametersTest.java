package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SilentSessionParametersTest {

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
