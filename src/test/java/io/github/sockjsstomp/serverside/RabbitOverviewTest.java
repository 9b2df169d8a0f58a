package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * RabbitMQ 3.10.8's GET /api/overview, recorded on this project's machine: idle (no messages since the broker
 * started: empty message_stats and queue_totals) and busy (171 messages published to a queue through the
 * management API, 114 taken with basic.get, 52 left in it).
 */
class RabbitOverviewTest {

    @Test
    void aBusyBrokerHasEveryFigure() throws Exception {
        assertThat(RabbitOverview.figures(Fixtures.read("rabbitmq-3.10-overview-busy.json")))
                .containsExactly(
                        new Figure(Figure.CONNECTIONS, 0),
                        new Figure(Figure.PUBLISH_PER_S, 9.8),
                        new Figure(Figure.DELIVER_PER_S, 6.8),
                        new Figure(Figure.QUEUE_DEPTH, 52));
    }

    @Test
    void anIdleBrokerHasItsConnectionsOnly() throws Exception {
        assertThat(RabbitOverview.figures(Fixtures.read("rabbitmq-3.10-overview-idle.json")))
                .containsExactly(new Figure(Figure.CONNECTIONS, 0));
    }

    @Test
    void queueDepthIsReadyPlusUnacknowledgedWhenTheTotalIsMissing() throws Exception {
        String json = "{\"object_totals\":{\"connections\":3},"
                + "\"queue_totals\":{\"messages_ready\":5,\"messages_unacknowledged\":7}}";
        assertThat(RabbitOverview.figures(json))
                .containsExactly(new Figure(Figure.CONNECTIONS, 3), new Figure(Figure.QUEUE_DEPTH, 12));
    }

    @Test
    void anotherAnswerIsAnErrorQuotingIt() {
        assertThatThrownBy(() -> RabbitOverview.figures("{\"error\":\"not_authorised\"}"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not_authorised");
    }
}
