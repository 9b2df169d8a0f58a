package io.github.sockjsstomp.steps;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * This JVM's process CPU over a span, as a share of the cores it has (0..1): the generator's own breath. Read
 * from {@code com.sun.management.OperatingSystemMXBean} where the JVM has it; 0 where it does not (then the
 * verdict leans on the send lag alone).
 */
final class CpuMeter {

    private final OperatingSystemMXBean bean;
    private final int cores;

    CpuMeter() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        this.bean = os instanceof OperatingSystemMXBean sun ? sun : null;
        this.cores = Runtime.getRuntime().availableProcessors();
    }

    int cores() {
        return cores;
    }

    /** A reading to measure from: process CPU nanoseconds (or -1) and wall nanoseconds. */
    long[] mark() {
        return new long[] {bean == null ? -1 : bean.getProcessCpuTime(), System.nanoTime()};
    }

    /** The CPU share of the cores used since {@code mark}. */
    double since(long[] mark) {
        if (bean == null || mark[0] < 0) {
            return 0;
        }
        long cpu = bean.getProcessCpuTime() - mark[0];
        long wall = System.nanoTime() - mark[1];
        return wall <= 0 ? 0 : Math.min(1, Math.max(0, (double) cpu / wall / cores));
    }
}
