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
        return statistic(Json.mapper().readTree(json), statistic);
    }

    /**
     * A time counter's measurement in seconds, by the answer's {@code baseUnit} ({@code process.cpu.time} is in
     * nanoseconds, {@code ns}, as Micrometer registers it); empty when the answer has none or a unit not of time.
     */
    static OptionalDouble seconds(String json, String statistic) throws IOException {
        JsonNode root = Json.mapper().readTree(json);
        double unit = switch (root.path("baseUnit").asText()) {
            case "ns", "nanoseconds" -> 1e-9;
            case "us", "microseconds" -> 1e-6;
            case "ms", "milliseconds" -> 1e-3;
            case "s", "seconds" -> 1;
            default -> Double.NaN;
        };
        OptionalDouble value = statistic(root, statistic);
        return Double.isNaN(unit) || value.isEmpty()
                ? OptionalDouble.empty()
                : OptionalDouble.of(value.getAsDouble() * unit);
    }

    private static OptionalDouble statistic(JsonNode root, String statistic) {
        JsonNode measurements = root.path("measurements");
        for (JsonNode measurement : measurements) {
            JsonNode value = measurement.path("value");
            if (statistic.equals(measurement.path("statistic").asText()) && value.isNumber()) {
                return OptionalDouble.of(value.asDouble());
            }
        }
        return OptionalDouble.empty();
    }
}
