package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.junit.jupiter.api.Test;
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
                "silentAfterSeconds|-1|Parameter 'silentAfterSeconds' has value '-1': expected a number from 0.0 to 3.1536E7",
                "silentAfterSeconds|soon|Parameter 'silentAfterSeconds' has value 'soon': expected a number",
            })
    void badValuesNameTheParameterAndTheValue(String name, String value, String error) {
        ParameterReader reader = readerOf(name, value);
        reader.read(name.equals("silentShare") ? StompParameters.SILENT_SHARE : StompParameters.SILENT_AFTER_SECONDS);
        assertThat(reader.errors()).singleElement().asString().startsWith(error);
    }

    @Test
    void aPlanSavedWithTheOldNameIsRefusedNamingTheNewOne() {
        ParameterReader reader = readerOf("silentAfter", "2");
        reader.refuseRenamed(List.of(StompParameters.SILENT_SHARE, StompParameters.SILENT_AFTER_SECONDS));
        assertThat(reader.errors())
                .containsExactly("Parameter 'silentAfter' has value '2': renamed: the time until a session goes silent"
                        + " is in seconds, and its name says so; use silentAfterSeconds");
    }

    @Test
    void aRenamedNameTheSamplerStillReadsIsReadAsBefore() {
        ParameterReader reader = readerOf("sessionsPerThread", "3");
        reader.refuseRenamed(List.of(StompParameters.USERS, StompParameters.SESSIONS_PER_THREAD));
        assertThat(reader.errors()).isEmpty();
    }

    /** A reader of a plan whose sampler has one argument. */
    private static ParameterReader readerOf(String name, String value) {
        Arguments args = new Arguments();
        args.addArgument(name, value);
        return new ParameterReader(new JavaSamplerContext(args));
    }
}
