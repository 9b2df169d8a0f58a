package io.github.sockjsstomp.serverside;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sockjsstomp.client.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * RabbitMQ's {@code GET /api/nodes} (the management plugin), summed over the cluster's nodes: what a broker holding
 * many users runs out of, beside {@code /api/overview}'s message figures. {@code fd_used} (file descriptors: each
 * Web-STOMP connection holds one), {@code sockets_used} (those the broker counts as sockets), {@code mem_used} (the
 * broker's own memory accounting, which its memory alarm compares with {@code mem_limit}), {@code proc_used}
 * (Erlang processes: several per connection) and {@code run_queue} (Erlang processes waiting for a scheduler: a
 * broker out of CPU). A figure a node does not report (a node down) is left out, not written as 0.
 */
final class RabbitNodes {

    private static final String[][] FIELDS = {
        {"fd_used", Figure.FD_USED},
        {"sockets_used", Figure.SOCKETS_USED},
        {"mem_used", Figure.BROKER_MEMORY_BYTES},
        {"proc_used", Figure.ERLANG_PROCESSES},
        {"run_queue", Figure.RUN_QUEUE}
    };

    private RabbitNodes() {}

    static List<Figure> figures(String json) throws IOException {
        JsonNode root = Json.mapper().readTree(json);
        if (!root.isArray()) {
            throw new IOException("not RabbitMQ's /api/nodes (not a list): "
                    + (json.length() > 200 ? json.substring(0, 200) + "..." : json));
        }
        List<Figure> figures = new ArrayList<>();
        for (String[] field : FIELDS) {
            double sum = 0;
            boolean any = false;
            for (JsonNode node : root) {
                JsonNode value = node.path(field[0]);
                if (value.isNumber()) {
                    sum += value.asDouble();
                    any = true;
                }
            }
            if (any) {
                figures.add(new Figure(field[1], sum));
            }
        }
        return figures;
    }
}
