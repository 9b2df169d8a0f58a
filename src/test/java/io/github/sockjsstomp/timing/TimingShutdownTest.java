package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimingShutdownTest {

    @TempDir
    Path dir;

    @Test
    void jvmExitWithoutTeardownStillWritesEveryMessageAsLost() throws Exception {
        Path file = dir.resolve("exit.csv");
        int messages = 20_000;
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ExitWithoutTeardown.class.getName(),
                        file.toString(),
                        Integer.toString(messages))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("child.out").toFile())
                .start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue())
                .as(Files.readString(dir.resolve("child.out")))
                .isZero();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo(TimingRecord.HEADER);
        assertThat(lines.subList(1, lines.size()))
                .hasSize(messages)
                .allSatisfy(line -> assertThat(line).contains(",LOST,").contains(",test-ended,fire-and-forget,"));
    }
}
