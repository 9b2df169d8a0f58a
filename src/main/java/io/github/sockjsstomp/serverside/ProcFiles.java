package io.github.sockjsstomp.serverside;

import java.io.IOException;

/**
 * What Linux's {@code /proc/<pid>/stat} and {@code /proc/<pid>/status} say about a process: its CPU time in clock
 * ticks (user + system, fields 14 and 15 of stat), its resident set ({@code VmRSS}) and its threads.
 */
final class ProcFiles {

    private ProcFiles() {}

    /** utime + stime, in clock ticks, from the text of {@code /proc/<pid>/stat}. */
    static long cpuTicks(String stat) throws IOException {
        // The command (field 2) is in parentheses and may hold spaces and parentheses itself: count from its end.
        int end = stat.lastIndexOf(')');
        String[] fields =
                end < 0 ? new String[0] : stat.substring(end + 1).trim().split("\\s+");
        // fields[0] is field 3 (state): utime (14) is fields[11], stime (15) fields[12].
        if (fields.length < 13) {
            throw new IOException("not a /proc/<pid>/stat line: " + stat.strip());
        }
        try {
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (NumberFormatException e) {
            throw new IOException("not a /proc/<pid>/stat line: " + stat.strip(), e);
        }
    }

    /** VmRSS in bytes from the text of {@code /proc/<pid>/status}; -1 when absent (a kernel thread, a zombie). */
    static long rssBytes(String status) {
        String kilobytes = field(status, "VmRSS:");
        return kilobytes == null
                ? -1
                : Long.parseLong(kilobytes.replace("kB", "").trim()) * 1024;
    }

    /** Threads from the text of {@code /proc/<pid>/status}; -1 when absent. */
    static long threads(String status) {
        String threads = field(status, "Threads:");
        return threads == null ? -1 : Long.parseLong(threads.trim());
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name)) {
                return line.substring(name.length());
            }
        }
        return null;
    }

    /**
     * The share of the machine's cores a process used between two readings: 1 is every core busy all the time. At
     * most 1: the kernel counts whole ticks (10 ms), so over a short interval a process can be counted a tick it only
     * partly used, and a share above the machine is the count's rounding, not the process.
     *
     * @param ticksPerSecond the kernel's USER_HZ (100 on Linux)
     */
    static double cpuShare(long ticksBefore, long ticksAfter, long elapsedNanos, long ticksPerSecond, int cores) {
        if (elapsedNanos <= 0 || cores <= 0) {
            return 0;
        }
        double cpuSeconds = (double) (ticksAfter - ticksBefore) / ticksPerSecond;
        return Math.min(1, Math.max(0, cpuSeconds / (elapsedNanos / 1e9) / cores));
    }
}
