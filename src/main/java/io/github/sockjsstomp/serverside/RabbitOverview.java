package io.github.sockjsstomp.serverside;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sockjsstomp.client.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * RabbitMQ's {@code GET /api/overview} (the management plugin), for the whole cluster: {@code object_totals
 * .connections}; {@code message_stats.publish_details.rate} and {@code deliver_get_details.rate} (deliveries to
 * consumers with and without acks, and basic.get: a STOMP subscription is one of these), messages per second as
 * the management plugin computes them over its own last seconds; {@code queue_totals.messages} (ready +
 * unacknowledged). An idle broker answers {@code "message_stats":{}} and {@code "queue_totals":{}}: those figures
 * are then left out, not written as 0.
 */
final class RabbitOverview {

    private RabbitOverview() {}

    static List<Figure> figures(String json) throws IOException {
        JsonNode root = Json.mapper().readTree(json);
        if (!root.isObject() || !root.has("object_totals")) {
            throw new IOException("not RabbitMQ's /api/overview (no object_totals): "
                    + (json.length() > 200 ? json.substring(0, 200) + "..." : json));
        }
        List<Figure> figures = new ArrayList<>();
        add(figures, Figure.CONNECTIONS, root.path("object_totals").path("connections"));
        JsonNode stats = root.path("message_stats");
        add(figures, Figure.PUBLISH_PER_S, stats.path("publish_details").path("rate"));
        add(figures, Figure.DELIVER_PER_S, stats.path("deliver_get_details").path("rate"));
        JsonNode queues = root.path("queue_totals");
        JsonNode messages = queues.path("messages");
        if (messages.isNumber()) {
            add(figures, Figure.QUEUE_DEPTH, messages);
        } else if (queues.path("messages_ready").isNumber()
                && queues.path("messages_unacknowledged").isNumber()) {
            figures.add(new Figure(
                    Figure.QUEUE_DEPTH,
                    queues.path("messages_ready").asDouble()
                            + queues.path("messages_unacknowledged").asDouble()));
        }
        return figures;
    }

    private static void add(List<Figure> figures, String metric, JsonNode value) {
        if (value.isNumber()) {
            figures.add(new Figure(metric, value.asDouble()));
        }
    }
}
