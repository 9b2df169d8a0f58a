package io.github.sockjsstomp.timing;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * How many threads each thread group of a run starts, counted once per run and group by the first of its threads
 * to ask ({@code users.GroupThreads} says why once). Here, on the run, because a run's parts are its typed fields;
 * keyed by the group object itself (JMeter's test elements compare by their properties), which timing knows only as
 * an object, since it imports nothing of JMeter.
 */
public final class ThreadGroupCounts {

    private final Map<Object, Integer> counts = new IdentityHashMap<>();

    /** The threads {@code group} starts, 1 or more: {@code count} asked on the first call for it only. */
    public synchronized int of(Object group, IntSupplier count) {
        return counts.computeIfAbsent(group, g -> Math.max(1, count.getAsInt()));
    }

    @Override
    public synchronized String toString() {
        return "ThreadGroupCounts[" + counts.size() + " groups]";
    }
}
