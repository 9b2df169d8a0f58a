package io.github.sockjsstomp.timing;

import static io.github.sockjsstomp.timing.SendMode.AWAIT_REPLY;
import static io.github.sockjsstomp.timing.SendMode.FIRE_AND_FORGET;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
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
        TimingLog log = new TimingLog(file, "7", "local", m -> {});
        int threads = 8;
        int perThread = 25_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    log.record(new TimingRecord(
                            1_700_000_000_000_000L + i,
                            Outcome.ANSWERED,
                            "m-" + thread + "-" + i,
                            i,
                            "user-" + thread,
                            "user, with comma",
                            "/app/echo",
                            10,
                            "",
                            AWAIT_REPLY,
                            "u #1",
                            "v #2",
                            -1));
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
            assertThat(line)
                    .matches("\\d+,ANSWERED,m-\\d-\\d+,\\d+,user-\\d,\"user, with comma\",/app/echo,10,,"
                            + "await-reply,7,\\d+,local,dev,u #1,v #2,,");
            ids.add(line.split(",")[2]);
        }
        assertThat(ids).hasSize(threads * perThread);
        assertThat(log.written()).isEqualTo(threads * perThread);
    }

    @Test
    void closeWritesEverythingQueuedAndCountsWhatComesAfter() throws Exception {
        Path file = dir.resolve("t.csv");
        TimingLog log = new TimingLog(file, "1", "local", m -> {});
        for (int i = 0; i < 10_000; i++) {
            log.record(new TimingRecord(
                    i, Outcome.LOST, "m-" + i, -1, "a", "", "/d", 1, "test-ended", FIRE_AND_FORGET, "u #1", "", -1));
        }
        log.close();
        log.record(new TimingRecord(
                0, Outcome.LOST, "late", -1, "a", "", "/d", 1, "test-ended", FIRE_AND_FORGET, "u #1", "", -1));

        assertThat(Files.readAllLines(file)).hasSize(10_001).noneMatch(line -> line.contains(",late,"));
        assertThat(log.late()).isEqualTo(1);
    }

    /**
     * Records that race the close (I/O threads still delivering replies while the run ends) are each written
     * or counted as late, never dropped uncounted.
     */
    @Test
    void recordsRacingTheCloseAreWrittenOrCounted() throws Exception {
        for (int round = 0; round < 20; round++) {
            Path file = dir.resolve("race-" + round + ".csv");
            TimingLog log = new TimingLog(file, "1", "local", m -> {});
            int threads = 4;
            CountDownLatch started = new CountDownLatch(threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Integer>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                writers.add(pool.submit(() -> {
                    started.countDown();
                    int offered = 0;
                    while (log.late() == 0 || offered < 100) {
                        log.record(new TimingRecord(
                                1,
                                Outcome.LOST,
                                "r",
                                -1,
                                "a",
                                "",
                                "/d",
                                1,
                                "test-ended",
                                FIRE_AND_FORGET,
                                "a #1",
                                "",
                                -1));
                        offered++;
                    }
                    return offered;
                }));
            }
            started.await();
            log.close();
            int offered = 0;
            for (Future<Integer> writer : writers) {
                offered += writer.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertThat(log.written() + log.late()).isEqualTo(offered);
            assertThat(Files.readAllLines(file)).hasSize(1 + (int) log.written());
        }
    }

    @Test
    void reopeningAppendsWithoutASecondHeader() throws Exception {
        Path file = dir.resolve("sub/dir/t.csv");
        List<String> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            TimingLog log = new TimingLog(file, Integer.toString(100 + run), "host_1099", m -> {});
            runs.add(log.run());
            log.record(new TimingRecord(
                    run * 1000 + 7,
                    Outcome.FAILED,
                    "m-" + run,
                    -1,
                    "a",
                    "",
                    "/d",
                    1,
                    "SendFailed",
                    run == 1 ? AWAIT_REPLY : FIRE_AND_FORGET,
                    "u #1",
                    "",
                    run == 1 ? 640 : -1));
            log.close();
        }
        assertThat(runs.get(1)).isNotEqualTo(runs.get(0));
        assertThat(Files.readAllLines(file))
                .containsExactly(
                        TimingRecord.HEADER,
                        "0,FAILED,m-0,,a,,/d,1,SendFailed,fire-and-forget," + runs.get(0) + ",7,host_1099,dev,u #1,,,",
                        "1,FAILED,m-1,,a,,/d,1,SendFailed,await-reply," + runs.get(1)
                                + ",1007,host_1099,dev,u #1,,640,");
    }

    @Test
    void aLogOfTheOlderFormatIsRefusedRatherThanMixed() throws IOException {
        Path file = Files.writeString(dir.resolve("old.csv"), TimingRecord.HEADER_V1 + "\n1,LOST,m,,a,,/d,1,timeout\n");
        assertThatThrownBy(() -> new TimingLog(file, "1", "local", m -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("older version");
        Path fourteen = Files.writeString(dir.resolve("v2.csv"), TimingRecord.HEADER_V2 + "\n");
        assertThatThrownBy(() -> new TimingLog(fourteen, "1", "local", m -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("older version (14 columns)");
        Path sixteen = Files.writeString(dir.resolve("v3.csv"), TimingRecord.HEADER_V3 + "\n");
        assertThatThrownBy(() -> new TimingLog(sixteen, "1", "local", m -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("older version (16 columns)");
    }

    @Test
    void sameFileIsOneLogPerRun() throws Exception {
        Path file = dir.resolve("shared.csv");
        Run run = new Run(0);
        TimingLog first = run.timingLog(file, "local");
        assertThat(run.timingLog(dir.resolve("./shared.csv"), "local")).isSameAs(first);
        assertThat(first.run()).isEqualTo(run.id());
        run.finish();
        first.record(new TimingRecord(
                1, Outcome.LOST, "after", -1, "a", "", "/d", 1, "test-ended", FIRE_AND_FORGET, "a #1", "", -1));
        assertThat(first.late()).as("the run's end closed its log").isEqualTo(1);
    }

    @Test
    void anotherFormatIsRefusedNamingTheFileAndHeader() throws IOException {
        Path file = Files.writeString(dir.resolve("other.csv"), "time,latency\n1,2\n");
        assertThatThrownBy(() -> new TimingLog(file, "1", "local", m -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("'time,latency'");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
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
        StringBuilder line = new StringBuilder();
        new TimingRecord(
                        5_000,
                        Outcome.FAILED,
                        "m-1",
                        -1,
                        "a",
                        "",
                        "/d",
                        2,
                        "line1\nline2",
                        FIRE_AND_FORGET,
                        "u #1",
                        "",
                        -1)
                .appendCsv(line, "1", TimingRecord.trailer("local", "dev"));
        assertThat(line)
                .hasToString("5,FAILED,m-1,,a,,/d,2,\"line1\nline2\",fire-and-forget,1,5000,local,dev,u #1,,,\n");
    }

    /** A disk that is full (here from the start: /dev/full answers every write with "no space"). */
    @Test
    void aFileThatCannotBeWrittenIsSaidOnceAndItsRecordsCountedAsUnwritten() throws Exception {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "needs Linux's /dev/full");
        List<String> problems = new CopyOnWriteArrayList<>();
        TimingLog log = new TimingLog(full, "1", "local", problems::add);
        for (int i = 0; i < 5_000; i++) {
            log.record(new TimingRecord(
                    i, Outcome.LOST, "m-" + i, -1, "a", "", "/d", 1, "timeout", FIRE_AND_FORGET, "a #1", "", -1));
        }
        log.close();
        assertThat(log.written()).isZero();
        assertThat(log.unwritten()).isEqualTo(5_000);
        assertThat(problems)
                .singleElement()
                .asString()
                .contains("/dev/full")
                .contains("No space left on device")
                .contains("unwritten");
    }
}
