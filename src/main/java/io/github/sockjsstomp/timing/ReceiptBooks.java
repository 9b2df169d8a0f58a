package io.github.sockjsstomp.timing;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The run's receipt counts and latencies: every message sent with a receipt header ends with its receipt
 * received (within {@code replyTimeoutMillis}) or not, once; receipts that came after that are counted apart.
 */
final class ReceiptBooks {

    private final LongAdder asked = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder missing = new LongAdder();
    private final LongAdder late = new LongAdder();
    /** Microseconds; auto-resizing, so no value is rejected. */
    private final ConcurrentHistogram latencies = new ConcurrentHistogram(3);

    void ask() {
        asked.increment();
    }

    void receive(long micros) {
        received.increment();
        latencies.recordValue(micros);
    }

    void miss() {
        missing.increment();
    }

    void arriveLate() {
        late.increment();
    }

    /** Receipts asked for and not yet settled either way. */
    long pending() {
        return Math.max(0, asked.sum() - received.sum() - missing.sum());
    }

    long asked() {
        return asked.sum();
    }

    long received() {
        return received.sum();
    }

    long missing() {
        return missing.sum();
    }

    long late() {
        return late.sum();
    }

    Histogram latencySnapshot() {
        return latencies.copy();
    }
}
