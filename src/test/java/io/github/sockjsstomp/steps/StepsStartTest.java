package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StepsStartTest {

    private static final long TEST_START = 1_800_000_000_000L;

    @ParameterizedTest
    @CsvSource({
        "+10, 10000, false",
        "+0, 0, false",
        "online, 0, true",
        "'online,+10', 10000, true",
        "' online, +2.5 ', 2500, true",
        "1800000060000, 60000, false"
    })
    void readsEveryForm(String text, long afterTestStart, boolean online) {
        StepsStart start = StepsStart.parse(text, TEST_START);
        assertThat(start.epochMs()).isEqualTo(TEST_START + afterTestStart);
        assertThat(start.online()).isEqualTo(online);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10", "+-1", "onlinе", "online,10", "online,", "+x", "later"})
    void refusesWhatItCannotRead(String text) {
        assertThatThrownBy(() -> StepsStart.parse(text, TEST_START))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected online");
    }

    @Test
    void saysItsTimesAsOffsetsFromTheTestsStart() {
        StepsStart start = StepsStart.parse("online,+10", TEST_START);
        assertThat(start).hasToString("when this engine's users are online (not before +10.0 s)");
        assertThat(start.sinceTestStart(TEST_START + 21_449)).isEqualTo("+21.4 s");
    }
}
