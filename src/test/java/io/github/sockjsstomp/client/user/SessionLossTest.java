package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.ConnectionLostException;
import org.springframework.web.socket.CloseStatus;

class SessionLossTest {

    /** What Spring 6.2's DefaultStompSession.ReadInactivityTask reports. */
    private static final ConnectionLostException READ_INACTIVITY =
            new ConnectionLostException("Read inactivity. Closing connection in session id=3.");

    /** What its afterConnectionClosed reports for a close it did not start. */
    private static final ConnectionLostException CLOSED = new ConnectionLostException("Connection closed");

    @Test
    void heartBeatsThatStoppedArrivingAreMissedHeartBeatsWhateverTheClose() {
        assertThat(SessionLoss.of(READ_INACTIVITY, null, false)).isEqualTo(SessionLoss.MISSED_HEARTBEATS);
        assertThat(SessionLoss.of(READ_INACTIVITY, CloseStatus.NORMAL, false)).isEqualTo(SessionLoss.MISSED_HEARTBEATS);
    }

    @Test
    void aCloseFrameFromTheServerIsTheServersClose() {
        assertThat(SessionLoss.of(CLOSED, CloseStatus.GOING_AWAY, false)).isEqualTo(SessionLoss.SERVER_CLOSED);
        assertThat(SessionLoss.of(CLOSED, CloseStatus.PROTOCOL_ERROR, false)).isEqualTo(SessionLoss.SERVER_CLOSED);
        assertThat(SessionLoss.of(CLOSED, new CloseStatus(1009, "message too big"), false))
                .isEqualTo(SessionLoss.SERVER_CLOSED);
    }

    @Test
    void aCloseWithoutACloseFrameOrAFailedReadIsATransportError() {
        assertThat(SessionLoss.of(CLOSED, CloseStatus.NO_CLOSE_FRAME, false)).isEqualTo(SessionLoss.TRANSPORT_ERROR);
        assertThat(SessionLoss.of(CLOSED, null, false)).isEqualTo(SessionLoss.TRANSPORT_ERROR);
        assertThat(SessionLoss.of(new EOFException(), null, false)).isEqualTo(SessionLoss.TRANSPORT_ERROR);
        assertThat(SessionLoss.of(new IllegalStateException("Invalid frame NOT-A-COMMAND"), CloseStatus.NORMAL, false))
                .isEqualTo(SessionLoss.TRANSPORT_ERROR);
    }

    @Test
    void anythingWhileWeCloseIsOurOwnClose() {
        assertThat(SessionLoss.of(READ_INACTIVITY, null, true)).isEqualTo(SessionLoss.CLOSED_BY_US);
        assertThat(SessionLoss.of(CLOSED, CloseStatus.NORMAL, true)).isEqualTo(SessionLoss.CLOSED_BY_US);
        assertThat(SessionLoss.of(new IOException("reset"), null, true)).isEqualTo(SessionLoss.CLOSED_BY_US);
    }
}
