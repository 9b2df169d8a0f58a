package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CapacityBookTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void noConnectsNoFigures() {
        assertThat(new CapacityBook().figures()).isNull();
    }

    @Test
    void peakIsTheMostSessionsHeldAtOnceAndTheRateSpansFirstStartToLastEnd() {
        CapacityBook book = new CapacityBook();
        book.connected(0, SECOND / 2);
        book.connected(SECOND / 2, SECOND);
        book.ended();
        book.connected(SECOND, 2 * SECOND);
        book.connected(2 * SECOND, 4 * SECOND);
        assertThat(book.figures()).isEqualTo("stomp sessions: 3 held at peak; 4 connects, 1.0 connects/s over 4.00 s");
    }

    @Test
    void connectsToldInTheOrderTheyFinishedSpanTheirEarliestStartToTheirLatestEnd() {
        CapacityBook book = new CapacityBook();
        book.connected(SECOND, 2 * SECOND);
        book.connected(0, 3 * SECOND);
        book.connected(SECOND / 2, SECOND);
        assertThat(book.figures()).isEqualTo("stomp sessions: 3 held at peak; 3 connects, 1.0 connects/s over 3.00 s");
    }

    @Test
    void oneConnectHasNoRateAndEndsNeverTakeTheCountBelowZero() {
        CapacityBook book = new CapacityBook();
        book.ended();
        book.connected(5, 10);
        book.ended();
        book.ended();
        assertThat(book.figures()).isEqualTo("stomp sessions: 1 held at peak; 1 connects, no connects/s (one event)");
    }
}
