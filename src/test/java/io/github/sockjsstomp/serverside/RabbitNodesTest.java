package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** RabbitMQ 3.10.8's GET /api/nodes, recorded on this project's machine (one node, a benchmark's users on it). */
class RabbitNodesTest {

    @Test
    void aNodesFiguresAreRead() throws Exception {
        assertThat(RabbitNodes.figures(Fixtures.read("rabbitmq-3.10-nodes.json")))
                .containsExactly(
                        new Figure(Figure.FD_USED, 2811),
                        new Figure(Figure.SOCKETS_USED, 357),
                        new Figure(Figure.BROKER_MEMORY_BYTES, 4174974976.0),
                        new Figure(Figure.ERLANG_PROCESSES, 63193),
                        new Figure(Figure.RUN_QUEUE, 18));
    }

    @Test
    void aClustersNodesAreSummedAndAFigureNoNodeHasIsLeftOut() throws Exception {
        String json = "[{\"fd_used\":10,\"proc_used\":100},{\"fd_used\":5,\"proc_used\":50,\"running\":false}]";
        assertThat(RabbitNodes.figures(json))
                .containsExactly(new Figure(Figure.FD_USED, 15), new Figure(Figure.ERLANG_PROCESSES, 150));
    }

    @Test
    void anAnswerThatIsNotAListIsRefusedQuotingIt() {
        assertThatThrownBy(() -> RabbitNodes.figures("{\"error\":\"not_authorised\"}"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not RabbitMQ's /api/nodes")
                .hasMessageContaining("not_authorised");
    }
}
