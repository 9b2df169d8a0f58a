package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The load generator itself, polled first in every round: the run its rows belong to, the sessions it holds and the
 * messages it sent so far, which the server's readings after it in the round are divided by (so the file alone gives
 * the per-session figures, to this JVM and to the analysis tool alike), and this JVM's own memory beside the
 * server's: its resident set from Linux's {@code /proc/self/status} (left out where there is none) and its heap in
 * use, all heap pools, as the actuator reads a Boot app's.
 */
final class GeneratorSource implements FigureSource {

    static final SourceSpec SPEC = new SourceSpec(SourceSpec.GENERATOR, "this JVM");

    private final RunCounts counts;
    private final Path status;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    /** @param status this process's {@code /proc/self/status} (a parameter so that a test can give another) */
    GeneratorSource(RunCounts counts, Path status) {
        this.counts = counts;
        this.status = status;
    }

    GeneratorSource(RunCounts counts) {
        this(counts, SourceSpec.PROC.resolve("self").resolve("status"));
    }

    @Override
    public List<Figure> poll() {
        List<Figure> figures = new ArrayList<>();
        figures.add(new Figure(Figure.RUN, counts.runId()));
        figures.add(new Figure(Figure.SESSIONS_HELD, counts.sessionsHeld()));
        figures.add(new Figure(Figure.MESSAGES_SENT, counts.messagesSent()));
        long rss = rssBytes();
        if (rss >= 0) {
            figures.add(new Figure(Figure.RSS_BYTES, rss));
        }
        figures.add(
                new Figure(Figure.HEAP_USED_BYTES, memory.getHeapMemoryUsage().getUsed()));
        return figures;
    }

    private long rssBytes() {
        try {
            return ProcFiles.rssBytes(Files.readString(status, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // not Linux: the heap alone
            return -1;
        }
    }

    @Override
    public SourceSpec spec() {
        return SPEC;
    }
}
