package io.github.sockjsstomp.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EngineNameTest {

    @ParameterizedTest
    @CsvSource({
        "stomp-timing.csv, local, stomp-timing.csv",
        "stomp-timing.csv, 10.0.0.5:1099, stomp-timing-10.0.0.5_1099.csv",
        "/data/run/timing.csv, gen-2, /data/run/timing-gen-2.csv",
        "timing, host/x, timing-host_x",
    })
    void aRemoteEnginesTimingLogCarriesItsName(String configured, String engine, String expected) {
        assertThat(EngineName.timingLogFor(Path.of(configured), engine)).isEqualTo(Path.of(expected));
    }

    @Test
    void outsideARemoteEngineItIsLocal() {
        assertThat(EngineName.current()).isEqualTo(EngineName.LOCAL);
    }
}
