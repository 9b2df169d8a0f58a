package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecentlyLostTest {

    private static final long BASE = 1_000_000_000L;
    private final RecentlyLost lost = new RecentlyLost(BASE);

    @ParameterizedTest
    @CsvSource({"1, 0", "17, 5000000", "65535, 123456000", "65536, 7000", "1099511627775, 999000"})
    void aLostMessagesSendTimeIsFoundByItsSequenceNumberToTheMicrosecond(long sequence, long afterBaseNanos) {
        lost.lost(sequence, BASE + afterBaseNanos + 999);
        assertThat(lost.sentNanos(sequence)).isEqualTo(BASE + afterBaseNanos);
    }

    @Test
    void aSlotTakenOverByALaterLossNoLongerAnswersForTheEarlierOne() {
        lost.lost(5, BASE + 1_000);
        lost.lost(5 + RecentlyLost.SLOTS, BASE + 2_000);
        assertThat(lost.sentNanos(5)).isEqualTo(RecentlyLost.UNKNOWN);
        assertThat(lost.sentNanos(5 + RecentlyLost.SLOTS)).isEqualTo(BASE + 2_000);
    }

    @Test
    void nothingIsKnownOfAMessageNeverLost() {
        assertThat(lost.sentNanos(0)).isEqualTo(RecentlyLost.UNKNOWN);
        assertThat(lost.sentNanos(42)).isEqualTo(RecentlyLost.UNKNOWN);
        assertThat(lost.sentNanos(-1)).isEqualTo(RecentlyLost.UNKNOWN);
    }

    @Test
    void aSendBeforeTheBaseIsNotKept() {
        lost.lost(3, BASE - 1_000);
        assertThat(lost.sentNanos(3)).isEqualTo(RecentlyLost.UNKNOWN);
    }
}
