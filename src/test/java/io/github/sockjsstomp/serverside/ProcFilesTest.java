package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** /proc/<pid>/stat and status as Linux writes them (recorded from a bash process), and the CPU share. */
class ProcFilesTest {

    @Test
    void cpuTicksAreUserPlusSystemTime() throws Exception {
        // utime 7, stime 10 in the recorded line (fields 14 and 15)
        assertThat(ProcFiles.cpuTicks(Fixtures.read("proc-stat.txt"))).isEqualTo(17);
    }

    @Test
    void aCommandWithSpacesAndParenthesesDoesNotShiftTheFields() throws Exception {
        String stat = "4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 1 2 3";
        assertThat(ProcFiles.cpuTicks(stat)).isEqualTo(300);
    }

    @Test
    void aLineThatIsNotStatIsAnErrorQuotingIt() {
        assertThatThrownBy(() -> ProcFiles.cpuTicks("no such thing"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("no such thing");
    }

    @Test
    void rssAndThreadsFromStatus() {
        String status = Fixtures.read("proc-status.txt");
        assertThat(ProcFiles.rssBytes(status)).isEqualTo(4220L * 1024);
        assertThat(ProcFiles.threads(status)).isEqualTo(1);
    }

    @Test
    void aProcessWithoutRssHasNone() {
        assertThat(ProcFiles.rssBytes("Name:\tkthreadd\nThreads:\t1\n")).isEqualTo(-1);
    }

    @ParameterizedTest
    @CsvSource({
        // ticks before, after, elapsed ms, cores, share
        "0, 100, 1000, 1, 1.0",
        "0, 100, 1000, 2, 0.5",
        "1000, 1050, 1000, 4, 0.125",
        "500, 500, 1000, 2, 0",
        "0, 100, 0, 2, 0",
        // two readings 1 ms apart, a tick between them: the count's rounding, not a process above the machine
        "7, 8, 1, 2, 1.0",
    })
    void cpuShareIsCpuSecondsPerSecondPerCore(long before, long after, long elapsedMillis, int cores, double share) {
        assertThat(ProcFiles.cpuShare(before, after, elapsedMillis * 1_000_000, 100, cores))
                .isEqualTo(share);
    }

    @Test
    void aProcessSourceReadsItsDirectoryAndGivesCpuFromTheSecondPoll(@TempDir Path proc) throws Exception {
        Path dir = Files.createDirectories(proc.resolve("4242"));
        Files.writeString(dir.resolve("stat"), Fixtures.read("proc-stat.txt"));
        Files.writeString(dir.resolve("status"), Fixtures.read("proc-status.txt"));
        ProcessSource source = new ProcessSource(new SourceSpec(SourceSpec.PID, "4242"), proc, 2);

        Map<String, Double> first = metrics(source.poll());
        assertThat(first).containsOnlyKeys(Figure.CPU_SECONDS, Figure.RSS_BYTES, Figure.THREADS);
        assertThat(first.get(Figure.CPU_SECONDS))
                .as("the fixture's 17 ticks of 10 ms")
                .isEqualTo(0.17);
        Map<String, Double> second = metrics(source.poll());
        assertThat(second).containsOnlyKeys(Figure.PROCESS_CPU, Figure.CPU_SECONDS, Figure.RSS_BYTES, Figure.THREADS);
        assertThat(second.get(Figure.PROCESS_CPU)).isEqualTo(0.0);

        Files.delete(dir.resolve("stat"));
        assertThatThrownBy(source::poll).isInstanceOf(IOException.class);
    }

    @Test
    void thisJvmIsReadAsAPid() throws Exception {
        long pid = ProcessHandle.current().pid();
        ProcessSource source = new ProcessSource(
                SourceSpec.parse("pid:" + pid),
                SourceSpec.PROC,
                Runtime.getRuntime().availableProcessors());
        double cpuBefore = metrics(source.poll()).get(Figure.CPU_SECONDS);
        burnCpu(TimeUnit.MILLISECONDS.toNanos(50));
        Map<String, Double> figures = metrics(source.poll());
        assertThat(figures.get(Figure.THREADS))
                .isEqualTo((double) Thread.getAllStackTraces().size(), within(200.0));
        assertThat(figures.get(Figure.RSS_BYTES)).isGreaterThan(1_000_000.0);
        // this thread's 50 ms of CPU between the polls are 5 ticks or more: a share above 0, and never above 1
        assertThat(figures.get(Figure.PROCESS_CPU)).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
        // and the CPU time so far grew by a tick (10 ms) or more
        assertThat(figures.get(Figure.CPU_SECONDS) - cpuBefore).isGreaterThanOrEqualTo(0.01);
    }

    /** Computes until this thread has used {@code cpuNanos} of CPU (bounded: 30 s of wall clock at most). */
    private static void burnCpu(long cpuNanos) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long from = threads.getCurrentThreadCpuTime();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() - from < cpuNanos && System.nanoTime() - deadline < 0) {
            for (int i = 0; i < 10_000; i++) {
                sink += i * 31L ^ sink;
            }
        }
        assertThat(sink).isNotZero();
    }

    private static Map<String, Double> metrics(List<Figure> figures) {
        return figures.stream().collect(Collectors.toMap(Figure::metric, Figure::value));
    }
}
