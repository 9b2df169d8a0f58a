package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.wiring.TransportDouble;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;

class SilenceTest {

    /** A transport that records what reaches it. */
    static final class RecordingSession extends TransportDouble {
        final List<String> written = new CopyOnWriteArrayList<>();

        @Override
        public void sendMessage(WebSocketMessage<?> message) {
            written.add(((TextMessage) message).getPayload());
        }
    }

    /** What the listener heard, in order. */
    static final class Heard implements Silence.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void silent(Silence silence) {
            events.add("silent " + silence.user());
        }

        @Override
        public void expired(Silence silence) {
            events.add("expired " + silence.user());
        }
    }

    private final RecordingSession transport = new RecordingSession();
    private final Heard heard = new Heard();
    private final Silence silence = new Silence(heard, "u1");
    private final WebSocketSession outgoing = silence.outgoing(transport);

    @Test
    void aSilentSessionWritesAndClosesNothingUntilTheServerClosesItThenItExpiredOnce() throws IOException {
        outgoing.sendMessage(new TextMessage("SEND before"));
        silence.silence();
        outgoing.sendMessage(new TextMessage("\n"));
        outgoing.sendMessage(new TextMessage("SEND after"));
        outgoing.close(CloseStatus.GOING_AWAY);
        assertThat(transport.written).containsExactly("SEND before");
        assertThat(transport.closedWith).isNull();
        assertThat(silence.expired()).isFalse();

        silence.closed(new CloseStatus(1006));
        assertThat(silence.expired()).isTrue();
        assertThat(silence.detectionNanos()).isNotNegative();
        assertThat(silence.closeStatus()).isEqualTo("1006");
        assertThat(silence.takeReport()).isTrue();
        assertThat(silence.takeReport()).isFalse();
        silence.closed(new CloseStatus(1000));
        assertThat(heard.events).containsExactly("silent u1", "expired u1");
    }

    @Test
    void aSessionClosedBeforeItWentSilentWasLostAndNeverGoesSilent() throws IOException {
        silence.closed(CloseStatus.SERVER_ERROR);
        silence.silence();
        outgoing.sendMessage(new TextMessage("SEND"));
        assertThat(silence.wentSilent()).isFalse();
        assertThat(silence.takeReport()).isFalse();
        assertThat(heard.events).isEmpty();
    }

    @Test
    void aSilentSessionWeCloseOrGiveUpOnNeverExpires() {
        silence.silence();
        silence.release();
        silence.closed(CloseStatus.GOING_AWAY);
        assertThat(silence.wentSilent()).isTrue();
        assertThat(silence.expired()).isFalse();
        assertThat(silence.detectionNanos()).isEqualTo(-1);
        assertThat(heard.events).containsExactly("silent u1");
    }

    @Test
    void givingUpAtTheEndRacesTheServersCloseAndOneWins() {
        silence.silence();
        assertThat(silence.giveUp()).isTrue();
        silence.closed(CloseStatus.GOING_AWAY);
        assertThat(silence.expired()).isFalse();

        Silence other = new Silence(heard, "u2");
        other.outgoing(new RecordingSession());
        other.silence();
        other.closed(CloseStatus.PROTOCOL_ERROR);
        assertThat(other.giveUp()).isFalse();
        assertThat(other.expired()).isTrue();
    }
}
