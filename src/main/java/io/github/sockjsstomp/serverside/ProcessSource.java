package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A process on this machine, by pid, from Linux's /proc ({@link ProcFiles}): its CPU since the previous poll as a
 * share of the machine's cores (none at the first poll), its CPU time so far (what the CPU per message is the
 * difference of), its resident set and its threads. A process that is gone fails the poll, and is said once, like a
 * server that does not answer.
 */
final class ProcessSource implements FigureSource {

    /** USER_HZ: the unit of /proc's CPU times, 100 on every Linux the JVM runs on (it is part of the kernel's ABI). */
    static final long TICKS_PER_SECOND = 100;

    private final SourceSpec spec;
    private final Path dir;
    private final int cores;
    private long lastTicks = -1;
    private long lastNanos;

    ProcessSource(SourceSpec spec, Path proc, int cores) {
        this.spec = spec;
        this.dir = proc.resolve(spec.target());
        this.cores = cores;
    }

    @Override
    public List<Figure> poll() throws IOException {
        long nanos = System.nanoTime();
        long ticks = ProcFiles.cpuTicks(Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8));
        String status = Files.readString(dir.resolve("status"), StandardCharsets.UTF_8);
        List<Figure> figures = new ArrayList<>();
        if (lastTicks >= 0) {
            figures.add(new Figure(
                    Figure.PROCESS_CPU,
                    ProcFiles.cpuShare(lastTicks, ticks, nanos - lastNanos, TICKS_PER_SECOND, cores)));
        }
        lastTicks = ticks;
        lastNanos = nanos;
        figures.add(new Figure(Figure.CPU_SECONDS, (double) ticks / TICKS_PER_SECOND));
        long rss = ProcFiles.rssBytes(status);
        if (rss >= 0) {
            figures.add(new Figure(Figure.RSS_BYTES, rss));
        }
        long threads = ProcFiles.threads(status);
        if (threads >= 0) {
            figures.add(new Figure(Figure.THREADS, threads));
        }
        return figures;
    }

    @Override
    public SourceSpec spec() {
        return spec;
    }
}
