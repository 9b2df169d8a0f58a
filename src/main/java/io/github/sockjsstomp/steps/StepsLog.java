package io.github.sockjsstomp.steps;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The steps log: one CSV row per step, written when the step's verdict is known (its hold over and its
 * messages settled), appended to an existing file as the timing log is. The format is shared with analysis/
 * (docs/capacity.md): its columns change only with it.
 */
public final class StepsLog implements AutoCloseable {

    public static final String HEADER = "run,engine,step,kind,offered,ramp_start_epoch_ms,hold_start_epoch_ms,"
            + "end_epoch_ms,users,sent,answered,lost,failed,achieved,p50_us,p99_us,p999_us,send_lag_p99_ms,"
            + "generator_cpu,machine_cpu,connects,connect_failed,connect_p99_ms,heartbeat_misses,verdict,limit,reason";

    private final Path path;
    private final String run;
    private final String engine;
    private final BufferedWriter out;

    public StepsLog(Path path, String run, String engine) throws IOException {
        this.path = path;
        this.run = run;
        this.engine = engine;
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        boolean fresh = !Files.exists(path) || Files.size(path) == 0;
        this.out = Files.newBufferedWriter(
                path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (fresh) {
            out.write(HEADER);
            out.write('\n');
            out.flush();
        }
    }

    /** Writes one step's row and flushes it: a row is rare, and one that is not on disk is lost with the JVM. */
    public synchronized void write(StepFigures f, Verdict verdict) throws IOException {
        out.write(row(run, engine, f, verdict));
        out.write('\n');
        out.flush();
    }

    static String row(String run, String engine, StepFigures f, Verdict verdict) {
        return String.join(
                ",",
                quote(run),
                quote(engine),
                Integer.toString(f.step()),
                f.kind().text,
                plain(f.offered()),
                Long.toString(f.rampStartEpochMs()),
                Long.toString(f.holdStartEpochMs()),
                Long.toString(f.endEpochMs()),
                Integer.toString(f.users()),
                cell(f.sent()),
                cell(f.answered()),
                cell(f.lost()),
                cell(f.failed()),
                plain(f.achieved()),
                cell(f.p50Micros()),
                cell(f.p99Micros()),
                cell(f.p999Micros()),
                f.sendLagP99Millis() == null ? "" : plain(f.sendLagP99Millis()),
                String.format(Locale.ROOT, "%.3f", f.generatorCpu()),
                f.machineCpu() == null ? "" : String.format(Locale.ROOT, "%.3f", f.machineCpu()),
                Long.toString(f.connects()),
                Long.toString(f.connectFailed()),
                cell(f.connectP99Millis()),
                Long.toString(f.heartbeatMisses()),
                verdict.verdict(),
                verdict.limit(),
                quote(verdict.reason()));
    }

    private static String cell(Long value) {
        return value == null ? "" : value.toString();
    }

    /** A number without thousands separators or exponent, at most three decimals. */
    static String plain(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        String text = String.format(Locale.ROOT, "%.3f", value);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** RFC 4180: quoted only when it holds a comma, a quote or a line break. */
    static String quote(String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    public Path path() {
        return path;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
