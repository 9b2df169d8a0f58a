package io.github.sockjsstomp.steps;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The generator's I/O threads' CPU over a span, by thread: the busiest one's share of a core. An I/O thread
 * reads, decodes and times the replies of every session on its lane, and has no queue of its own that could be
 * read: what waits for a busy lane waits in the kernel's socket buffers, and its replies are timed late. A lane
 * busy the whole of a hold is the generator's limit, whatever its JVM's CPU over all cores says (one lane of
 * several can be full while the others idle).
 */
final class IoLanes {

    /** The busiest I/O thread over a span: its name, and its CPU as a share of one core (0..1). */
    record Busiest(String thread, double share) {}

    private final ThreadMXBean threads;
    private final String prefix;

    /** @param prefix the I/O threads' name prefix ({@code stomp-io-}) */
    IoLanes(String prefix) {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        this.threads = bean.isThreadCpuTimeSupported() ? bean : null;
        this.prefix = prefix;
    }

    /** A reading to measure from: each I/O thread's CPU nanoseconds by thread id, and the wall time. */
    Mark mark() {
        return new Mark(cpuByThread(), System.nanoTime());
    }

    /** The busiest I/O thread since {@code mark}; null when none ran or thread CPU cannot be read. */
    Busiest busiestSince(Mark mark) {
        long wall = System.nanoTime() - mark.wallNanos();
        if (threads == null || wall <= 0) {
            return null;
        }
        Busiest busiest = null;
        for (Map.Entry<Long, Named> now : cpuByThread().entrySet()) {
            Named before = mark.cpu().get(now.getKey());
            // a thread started in the span counts from its start
            long cpu = now.getValue().cpuNanos() - (before == null ? 0 : before.cpuNanos());
            double share = Math.min(1, Math.max(0, (double) cpu / wall));
            if (busiest == null || share > busiest.share()) {
                busiest = new Busiest(now.getValue().name(), share);
            }
        }
        return busiest;
    }

    private Map<Long, Named> cpuByThread() {
        Map<Long, Named> cpu = new HashMap<>();
        if (threads == null) {
            return cpu;
        }
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                long nanos = threads.getThreadCpuTime(info.getThreadId());
                if (nanos >= 0) {
                    cpu.put(info.getThreadId(), new Named(info.getThreadName(), nanos));
                }
            }
        }
        return cpu;
    }

    record Named(String name, long cpuNanos) {}

    /** The I/O threads' CPU at one moment. */
    record Mark(Map<Long, Named> cpu, long wallNanos) {}
}
