package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The cost lines' words, as the analysis tool's tests expect them of its own (test_session_costs.py). */
class CostWordsTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0 B",
        "999.4, 999 B",
        "-0.4, 0 B",
        "0.5, 0 B",
        "1.5, 2 B",
        "1000, 1.00 KB",
        "41000, 41.0 KB",
        "118499, 118 KB",
        "9999, 10.00 KB",
        "312400000, 312 MB",
        "1200000000, 1.20 GB",
        "-3100, -3.10 KB",
        "2000000000000, 2.00 TB"
    })
    void bytesAreDecimalUnitsToThreeSignificantDigitsRoundedHalfToEven(double bytes, String expected) {
        assertThat(CostWords.bytes(bytes)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"0.125, 2, 0.12", "0.375, 2, 0.38", "2.5, 0, 2", "-0.04, 1, 0.0", "38.25, 1, 38.2"})
    void fixedRoundsTheExactValueHalfToEven(double value, int decimals, String expected) {
        assertThat(CostWords.fixed(value, decimals)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "999, 999", "2000, '2,000'", "1234567, '1,234,567'"})
    void countsHaveThousandsSeparators(long count, String expected) {
        assertThat(CostWords.count(count)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"1767268800000, 12:00:00.000", "1767268861250, 12:01:01.250"})
    void timesAreOfTheDayToTheMillisecond(long epochMillis, String expected) {
        assertThat(CostWords.time(epochMillis, ZoneOffset.UTC)).isEqualTo(expected);
    }
}
