package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StepsLogTest {

    @Test
    void writesTheHeaderOnceAndOneRowPerStepInTheSharedFormat(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stomp-steps.csv");
        StepFigures step = VerdictTest.rate(3, 8000, 24_000, 504, 1_240_000L, 2.5, 0.5);
        try (StepsLog log = new StepsLog(file, "1767225600000", "local")) {
            log.write(step, new Verdict("broke", "server", "p99 1240 ms > 500 ms; lost 2.1% > 0%"));
        }
        try (StepsLog log = new StepsLog(file, "1767225600001", "host_1099")) {
            log.write(VerdictTest.users(1, 100, 100, 0, 20L, 7), new Verdict("unchecked", "", ""));
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0))
                .isEqualTo("run,engine,step,kind,offered,ramp_start_epoch_ms,hold_start_epoch_ms,end_epoch_ms,users,"
                        + "sent,answered,lost,failed,achieved,p50_us,p99_us,p999_us,send_lag_p99_ms,generator_cpu,"
                        + "machine_cpu,connects,connect_failed,connect_p99_ms,heartbeat_misses,verdict,limit,reason");
        assertThat(lines.get(1))
                .isEqualTo("1767225600000,local,3,rate,8000,0,1000,2000,10,24000,23496,504,0,7832,620000,1240000,"
                        + "1240000,2.5,0.500,,0,0,,0,broke,server,p99 1240 ms > 500 ms; lost 2.1% > 0%");
        assertThat(lines.get(2))
                .isEqualTo(
                        "1767225600001,host_1099,1,users,100,0,1000,4000,100,,,,,100,,,,,0.200,,100,0,20,7,unchecked,,");
    }

    @Test
    void quotesAReasonWithACommaAsRfc4180Does() {
        assertThat(StepsLog.quote("a, \"b\"")).isEqualTo("\"a, \"\"b\"\"\"");
        assertThat(StepsLog.plain(12.3456)).isEqualTo("12.346");
        assertThat(StepsLog.plain(1e7)).isEqualTo("10000000");
    }
}
