package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineCpuTest {

    private static final List<String> TWO_CORES = List.of(
            "cpu  100 10 50 800 40 0 0 0 0 0",
            "cpu0 50 5 25 400 20 0 0 0 0 0",
            "cpu1 50 5 25 400 20 0 0 0 0 0",
            "intr 12345",
            "ctxt 999");

    @Test
    void busyIsEverythingButIdleAndIoWaitOverTheSpan() {
        long[] from = MachineCpu.jiffies(TWO_CORES);
        assertThat(from).containsExactly(160, 1000);
        // 200 jiffies later: 190 busy (user 150, system 40), 10 idle
        long[] to = MachineCpu.jiffies(List.of("cpu  250 10 90 810 40 0 0 0 0 0"));
        assertThat(MachineCpu.share(from, to)).isEqualTo(0.95);
        assertThat(MachineCpu.share(to, to)).isNull();
        assertThat(MachineCpu.cores(TWO_CORES)).isEqualTo(2);
    }

    @Test
    void aFileThatIsNotThereOrNotProcStatIsNotRead(@TempDir Path dir) throws Exception {
        MachineCpu absent = new MachineCpu(dir.resolve("stat"));
        assertThat(absent.readable()).isFalse();
        assertThat(absent.since(absent.mark())).isNull();
        Files.writeString(dir.resolve("other"), "not a stat file\n");
        assertThat(new MachineCpu(dir.resolve("other")).readable()).isFalse();
    }

    @Test
    void aReadableFileIsReadBetweenTwoMarks(@TempDir Path dir) throws Exception {
        Path stat = dir.resolve("stat");
        Files.write(stat, TWO_CORES);
        MachineCpu machine = new MachineCpu(stat);
        assertThat(machine.readable()).isTrue();
        assertThat(machine.cores()).isEqualTo(2);
        long[] mark = machine.mark();
        Files.write(stat, List.of("cpu  150 10 50 1300 40 0 0 0 0 0", "cpu0 0", "cpu1 0"));
        assertThat(machine.since(mark)).isEqualTo(0.09090909090909091); // 50 busy of 550
    }
}
