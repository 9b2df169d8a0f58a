package io.github.sockjsstomp.steps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole machine's CPU over a span, as a share of all its cores busy (0..1), read from Linux's
 * {@code /proc/stat}: beside the generator's own CPU ({@link CpuMeter}) it tells a machine that other work filled
 * (another test, a build, the server on the same machine) from a generator or a server out of breath. Where there
 * is no {@code /proc/stat} it reads nothing ({@link #readable()} false), and the verdicts go without it.
 */
final class MachineCpu {

    static final Path PROC_STAT = Path.of("/proc/stat");

    private final Path stat;
    private final int cores;

    MachineCpu() {
        this(PROC_STAT);
    }

    MachineCpu(Path stat) {
        this.stat = stat;
        this.cores = cores(read(stat));
    }

    /** Whether the machine's CPU can be read here. */
    boolean readable() {
        return cores > 0;
    }

    /** The machine's cores ({@code cpuN} lines); 0 when not readable. */
    int cores() {
        return cores;
    }

    /** A reading to measure from: busy and total jiffies of all cores; null when not readable. */
    long[] mark() {
        return readable() ? jiffiesOrNull(read(stat)) : null;
    }

    /** The share of all cores busy since {@code mark}; null when not readable or no time passed. */
    Double since(long[] mark) {
        long[] now = mark == null ? null : jiffiesOrNull(read(stat));
        if (now == null) {
            return null;
        }
        return share(mark, now);
    }

    /** Busy over total between two readings, 0..1; null when no jiffy passed. */
    static Double share(long[] from, long[] to) {
        long total = to[1] - from[1];
        return total <= 0 ? null : Math.min(1, Math.max(0, (double) (to[0] - from[0]) / total));
    }

    /**
     * {@code {busy, total}} from the aggregate {@code cpu} line: user nice system idle iowait irq softirq steal (the
     * guest columns are already in user and nice); idle and iowait are not busy. Null when the line is not there.
     */
    static long[] jiffies(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < Math.min(f.length, 9); i++) {
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
                return new long[] {total - idle, total};
            }
        }
        return null;
    }

    static int cores(List<String> lines) {
        if (jiffiesOrNull(lines) == null) {
            return 0;
        }
        return (int) lines.stream()
                .filter(l -> l.startsWith("cpu") && l.length() > 3 && Character.isDigit(l.charAt(3)))
                .count();
    }

    private static long[] jiffiesOrNull(List<String> lines) {
        try {
            return jiffies(lines);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<String> read(Path stat) {
        try {
            return Files.readAllLines(stat);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
