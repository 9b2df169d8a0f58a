package io.github.sockjsstomp.timing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * One kind of trouble by cause, as a user reads it: each distinct cause is said the first time it is seen
 * ({@link #add} returns true once per cause), then only counted, and the counts are said at the run's end. A
 * thousand users refused alike make one line and a count, not a thousand lines. Bounded: beyond {@code maxCauses}
 * distinct causes (a server that names each user in its words), a new cause is counted among "other causes" and
 * not said. Thread-safe; a cause seen before costs a map lookup and a counter increment, nothing allocated.
 */
public final class CountedCauses {

    private final int maxCauses;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final LongAdder others = new LongAdder();

    public CountedCauses(int maxCauses) {
        if (maxCauses < 1) {
            throw new IllegalArgumentException("maxCauses must be at least 1, was " + maxCauses);
        }
        this.maxCauses = maxCauses;
    }

    /** Counts one more of {@code cause}; true the first time it is seen, when the caller says it. */
    public boolean add(String cause) {
        LongAdder count = counts.get(cause);
        if (count != null) {
            count.increment();
            return false;
        }
        if (counts.size() >= maxCauses) {
            others.increment();
            return false;
        }
        LongAdder mine = new LongAdder();
        LongAdder had = counts.putIfAbsent(cause, mine);
        (had == null ? mine : had).increment();
        return had == null;
    }

    /** All counted, whatever the cause. */
    public long total() {
        long sum = others.sum();
        for (LongAdder count : counts.values()) {
            sum += count.sum();
        }
        return sum;
    }

    /** One line per cause, the most frequent first ("12 x cause"), then the other causes' count, if any. */
    public List<String> lines() {
        return lines(Function.identity());
    }

    /** As {@link #lines()}, each cause shown as {@code shown} gives it. */
    public List<String> lines(Function<String, String> shown) {
        List<Map.Entry<String, Long>> byCount = new ArrayList<>();
        counts.forEach((cause, count) -> byCount.add(Map.entry(cause, count.sum())));
        byCount.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> lines = new ArrayList<>();
        byCount.forEach(entry -> lines.add(entry.getValue() + " x " + shown.apply(entry.getKey())));
        long other = others.sum();
        if (other > 0) {
            lines.add(other + " x other causes (only the first " + maxCauses + " distinct causes are told apart)");
        }
        return lines;
    }

    @Override
    public String toString() {
        return "CountedCauses[" + counts.size() + " causes, " + total() + " counted]";
    }
}
