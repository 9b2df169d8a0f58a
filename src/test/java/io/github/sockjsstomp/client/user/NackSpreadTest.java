package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NackSpreadTest {

    private static List<Integer> nacked(double share, int messages) {
        NackSpread spread = new NackSpread(share);
        List<Integer> nacked = new ArrayList<>();
        for (int i = 1; i <= messages; i++) {
            if (spread.nextIsNacked()) {
                nacked.add(i);
            }
        }
        return nacked;
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|12|[]",
                "0.25|12|[4, 8, 12]",
                "0.1|20|[10, 20]",
                "0.3|10|[4, 7, 10]",
                "0.5|6|[2, 4, 6]",
                "1|3|[1, 2, 3]",
            })
    void theNackedMessagesAreSpreadEvenlyAndTheSameEachTime(double share, int messages, String expected) {
        assertThat(nacked(share, messages)).hasToString(expected);
        assertThat(nacked(share, messages)).isEqualTo(nacked(share, messages));
    }

    @ParameterizedTest
    @CsvSource({"0.1, 1000, 100", "0.01, 1000, 10", "0.333333, 999999, 333332", "0.7, 10, 7"})
    void theShareAddsUpExactly(double share, int messages, int count) {
        assertThat(nacked(share, messages)).hasSize(count);
    }
}
