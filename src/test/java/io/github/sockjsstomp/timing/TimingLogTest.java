package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.timing.TimingRecord.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimingLogTest {

    @TempDir
    Path dir;

    @Test
    void concurrentWritersLoseNoRecordAndNeverInterleaveLines() throws Exception {
        Path file = dir.resolve("timing.csv");
        TimingLog log = TimingLog.open(file);
        int threads = 8;
        int perThread = 25_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    log.record(new TimingRecord(1_700_000_000_000L + i, Outcome.ANSWERED, "m-" + thread + "-" + i,
                            i, "user-" + thread, "user, with comma", "/app/echo", 10, ""));
                }
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        log.close();

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo(TimingRecord.HEADER);
        assertThat(lines).hasSize(1 + threads * perThread);
        Set<String> ids = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            assertThat(line).matches("\\d+,ANSWERED,m-\\d-\\d+,\\d+,user-\\d,\"user, with comma\",/app/echo,10,");
            ids.add(line.split(",")[2]);
        }
        assertThat(ids).hasSize(threads * perThread);
        assertThat(log.written()).isEqualTo(threads * perThread);
    }

    @Test
    void closeWritesEverythingQueuedAndCountsWhatComesAfter() throws Exception {
        Path file = dir.resolve("t.csv");
        TimingLog log = TimingLog.open(file);
        for (int i = 0; i < 10_000; i++) {
            log.record(new TimingRecord(i, Outcome.LOST, "m-" + i, -1, "a", "", "/d", 1, "test-ended"));
        }
        TimingLog.closeAll();
        log.record(new TimingRecord(0, Outcome.LOST, "late", -1, "a", "", "/d", 1, "test-ended"));

        assertThat(Files.readAllLines(file)).hasSize(10_001).doesNotContain("late");
    }

    @Test
    void reopeningAppendsWithoutASecondHeader() throws Exception {
        Path file = dir.resolve("sub/dir/t.csv");
        for (int run = 0; run < 2; run++) {
            TimingLog log = TimingLog.open(file);
            log.record(new TimingRecord(run, Outcome.FAILED, "m-" + run, -1, "a", "", "/d", 1, "SendFailed"));
            log.close();
        }
        assertThat(Files.readAllLines(file)).containsExactly(TimingRecord.HEADER,
                "0,FAILED,m-0,,a,,/d,1,SendFailed", "1,FAILED,m-1,,a,,/d,1,SendFailed");
    }

    @Test
    void sameFileIsOneLogPerJvm() throws Exception {
        Path file = dir.resolve("shared.csv");
        TimingLog first = TimingLog.open(file);
        assertThat(TimingLog.open(dir.resolve("./shared.csv"))).isSameAs(first);
        first.close();
    }

    @Test
    void anotherFormatIsRefusedNamingTheFileAndHeader() throws IOException {
        Path file = Files.writeString(dir.resolve("other.csv"), "time,latency\n1,2\n");
        assertThatThrownBy(() -> TimingLog.open(file)).isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("'time,latency'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "plain|plain",
        "a,b|\"a,b\"",
        "say \"hi\"|\"say \"\"hi\"\"\"",
    })
    void fieldsAreQuotedOnlyWhenNeeded(String value, String expected) {
        StringBuilder out = new StringBuilder();
        TimingRecord.appendField(out, value);
        assertThat(out).hasToString(expected);
    }

    @Test
    void lineBreaksInsideAFieldAreQuoted() {
        String line = new TimingRecord(5, Outcome.FAILED, "m-1", -1, "a", "", "/d", 2, "line1\nline2").toCsvLine();
        assertThat(line).isEqualTo("5,FAILED,m-1,,a,,/d,2,\"line1\nline2\"\n");
    }
}
