package io.github.sockjsstomp.serverside;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sockjsstomp.client.Json;
import java.io.IOException;
import java.util.OptionalDouble;

/**
 * One answer of Spring Boot's {@code /actuator/metrics/{name}}: {@code {"name":..., "baseUnit":...,
 * "measurements":[{"statistic":"VALUE","value":0.5}, ...], "availableTags":[...]}}, summed over the tags asked
 * for by Boot itself.
 */
final class ActuatorMetric {

    private ActuatorMetric() {}

    /** The measurement of {@code statistic} (VALUE, COUNT, TOTAL_TIME, MAX); empty when the answer has none. */
    static OptionalDouble statistic(String json, String statistic) throws IOException {
        JsonNode measurements = Json.mapper().readTree(json).path("measurements");
        for (JsonNode measurement : measurements) {
            JsonNode value = measurement.path("value");
            if (statistic.equals(measurement.path("statistic").asText()) && value.isNumber()) {
                return OptionalDouble.of(value.asDouble());
            }
        }
        return OptionalDouble.empty();
    }
}
