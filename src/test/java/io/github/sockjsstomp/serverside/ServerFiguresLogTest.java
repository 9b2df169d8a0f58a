package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerFiguresLogTest {

    @TempDir
    Path dir;

    @Test
    void oneRowPerFigureUnderTheHeaderAndAppendedToNextTime() throws Exception {
        Path path = dir.resolve("sub/stomp-server.csv");
        try (ServerFiguresLog log = ServerFiguresLog.open(path)) {
            log.write(
                    1_700_000_000_000L,
                    "actuator",
                    List.of(new Figure("process_cpu", 0.25), new Figure("heap_used_bytes", 1.32997424E8)));
        }
        try (ServerFiguresLog log = ServerFiguresLog.open(path)) {
            log.write(1_700_000_001_000L, "pid", List.of(new Figure("threads", 42)));
            log.write(1_700_000_001_000L, "pid", List.of());
        }
        assertThat(Files.readAllLines(path))
                .containsExactly(
                        "epoch_ms,source,metric,value",
                        "1700000000000,actuator,process_cpu,0.25",
                        "1700000000000,actuator,heap_used_bytes,132997424",
                        "1700000001000,pid,threads,42");
    }

    @Test
    void aFileWithAnotherHeaderIsRefusedNamingTheParameter() throws Exception {
        Path path = Files.writeString(dir.resolve("timing.csv"), "run,outcome\n1,ANSWERED\n");
        assertThatThrownBy(() -> ServerFiguresLog.open(path))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serverFiguresLog");
        assertThat(Files.readString(path)).isEqualTo("run,outcome\n1,ANSWERED\n");
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "42, 42", "0.5, 0.5", "1.0E-7, 0.0000001", "1.32997424E8, 132997424", "2.5E15, 2500000000000000"
    })
    void numbersArePlainDecimals(double value, String written) {
        assertThat(ServerFiguresLog.number(value)).isEqualTo(written);
    }
}
