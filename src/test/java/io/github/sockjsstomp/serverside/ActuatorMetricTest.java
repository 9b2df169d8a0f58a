package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Answers of Spring Boot 3.5's /actuator/metrics/{name}, recorded from the greeting app of the tests. */
class ActuatorMetricTest {

    @ParameterizedTest
    @CsvSource({
        "actuator-process.cpu.usage.json, VALUE, 0.29411764705882354",
        "actuator-jvm.memory.used-heap.json, VALUE, 132997424",
        "actuator-jvm.gc.pause.json, TOTAL_TIME, 0.345",
        "actuator-jvm.gc.pause.json, COUNT, 1",
        "actuator-jvm.gc.pause.json, MAX, 0.345",
    })
    void readsTheStatisticAsked(String fixture, String statistic, double expected) throws Exception {
        assertThat(ActuatorMetric.statistic(Fixtures.read(fixture), statistic)).hasValue(expected);
    }

    @Test
    void aTimeCounterIsReadInSecondsByItsBaseUnit() throws Exception {
        assertThat(ActuatorMetric.seconds(Fixtures.read("actuator-process.cpu.time.json"), "COUNT"))
                .as("9.11E9 ns")
                .hasValueCloseTo(9.11, within(1e-9));
        assertThat(ActuatorMetric.seconds(Fixtures.read("actuator-jvm.memory.used-heap.json"), "VALUE"))
                .as("bytes are no time")
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"actuator-process.cpu.usage.json, TOTAL_TIME", "actuator-jvm.gc.pause.json, VALUE"})
    void aStatisticTheMetricDoesNotHaveIsEmpty(String fixture, String statistic) throws Exception {
        assertThat(ActuatorMetric.statistic(Fixtures.read(fixture), statistic)).isEqualTo(OptionalDouble.empty());
    }
}
