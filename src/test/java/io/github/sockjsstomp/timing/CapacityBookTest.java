package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.user.SessionLoss;
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

    @Test
    void lostSessionsAreSaidByCauseAndAMissedHeartBeatCountsInTheHoldItWasLostIn() {
        StepWindows steps = new StepWindows();
        CapacityBook book = new CapacityBook(steps);
        StepWindows.Window hold = steps.open(1_000, 2_000);
        book.connected(0, 1);
        book.sessionLost(SessionLoss.MISSED_HEARTBEATS, 1_000, null);
        book.sessionLost(SessionLoss.MISSED_HEARTBEATS, 2_000, null); // after the hold
        book.sessionLost(SessionLoss.SERVER_CLOSED, 1_500, null); // in it, but not a heart-beat
        // a read inactivity's own close, told first as a transport error, then as what it was
        book.sessionLost(SessionLoss.TRANSPORT_ERROR, 1_700, null);
        book.sessionLost(SessionLoss.MISSED_HEARTBEATS, 1_700, SessionLoss.TRANSPORT_ERROR);
        assertThat(hold.heartbeatMisses()).isEqualTo(2);
        assertThat(book.lostTo(SessionLoss.MISSED_HEARTBEATS)).isEqualTo(3);
        assertThat(book.lostTo(SessionLoss.TRANSPORT_ERROR)).isZero();
        assertThat(book.figures()).endsWith("; 4 lost: 3 to missed heart-beats, 1 to the server's close");
    }
}
