package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.timing.TimingRecord.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The timing log under load (bench/timing-log.sh runs it): how many records per second it writes to disk
 * end to end, and what one {@code record()} costs the sender that calls it.
 */
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgs = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class TimingLogBenchmark {

    static final int BATCH = 10_000;
    static final long WORK_TOKENS = 400;

    private Path dir;
    private TimingLog log;
    private TimingRecord answered;
    private long offered;
    private final LongAdder counted = new LongAdder();

    @Setup(Level.Iteration)
    public void open() throws IOException {
        dir = Files.createTempDirectory("timing-bench");
        log = new TimingLog(dir.resolve("timing.csv"), "1", "local", m -> {});
        // A typical echo record: an id of the plugin's shape, user names, a destination.
        answered = new TimingRecord(
                1_795_420_800_123_456L,
                Outcome.ANSWERED,
                "k3f9a2-1-123456",
                812,
                "user-17",
                "user-17",
                "/app/echo",
                120,
                "",
                SendMode.AWAIT_REPLY,
                "senders #17",
                "senders #17",
                -1);
        offered = 0;
        counted.reset();
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        log.close();
        long expected = offered + counted.sum();
        if (log.written() + log.late() != expected) {
            throw new IllegalStateException("records lost: offered " + expected + ", written " + log.written());
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    /**
     * End to end: a batch offered by one sender, then waited for until the writer has put it in the file, so
     * the score (records/s) is what the log sustains, not what the queue swallows.
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    @Threads(1)
    public long sustained() {
        long target = log.written() + BATCH;
        for (int i = 0; i < BATCH; i++) {
            log.record(answered);
        }
        offered += BATCH;
        while (log.written() < target) {
            Thread.onSpinWait();
        }
        return target;
    }

    /**
     * What a sender pays per record while the writer runs, two senders at once: each does about a
     * microsecond of other work per message (so together they offer what the writer can take, as real
     * senders do) and then records. Compare its percentiles with {@link #work()}: the difference is the
     * record's cost, and a send that waited on the file would show as a tail here.
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Threads(2)
    public void workAndRecord() {
        Blackhole.consumeCPU(WORK_TOKENS);
        log.record(answered);
        counted.increment();
    }

    /** The same work without the record: the baseline of {@link #workAndRecord()}. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Threads(2)
    public void work() {
        Blackhole.consumeCPU(WORK_TOKENS);
    }
}
