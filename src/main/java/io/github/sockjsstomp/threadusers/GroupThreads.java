package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.ThreadGroupCounts;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * How many threads each thread group of a run starts: read once per run and group, by the first of its threads
 * to ask, and kept on the run ({@link Run#threadGroupCounts}).
 *
 * <p>Why not on every thread: JMeter evaluates the group's thread count ({@code ${__P(threads,${__jexl3(...)})}} in
 * the plans) on the thread that asks, and {@code __jexl3} keeps a JEXL engine per thread in a thread-local of
 * JMeter's ({@code Jexl3Function.threadLocalJexl}) for as long as the thread lives. Its parser's buffers alone are
 * 41 KB (two {@code int[4096]} and a {@code char[4096]}): with a user per thread, asked on each thread, that was the
 * larger part of a held session's heap. Asked once, one thread of the group pays it.
 */
public final class GroupThreads {

    private GroupThreads() {}

    /** The threads of the current thread's group, 1 or more (1 outside a thread group). */
    public static int ofThisThread(Run run) {
        AbstractThreadGroup group = JMeterContextService.getContext().getThreadGroup();
        return group == null ? 1 : of(run.threadGroupCounts(), group);
    }

    /** The threads {@code group} starts, 1 or more: its thread count evaluated on the first call for it. */
    static int of(ThreadGroupCounts counts, AbstractThreadGroup group) {
        return counts.of(group, group::getNumThreads);
    }
}
