package io.github.sockjsstomp.timing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When the run's last LOST messages were sent, so that a reply coming after its message was declared LOST can say
 * how late it is: the LOST message is no longer known to the tracker by then. Fixed memory whatever a run loses
 * (512 KiB): one slot per message sequence number modulo {@value #SLOTS}, holding the send time and the rest of
 * the sequence number in one long, so a slot is written and read in one atomic step. A later LOST message with the
 * same slot takes it over: a reply that comes after {@value #SLOTS} more messages were lost is late by an unknown
 * amount.
 */
final class RecentlyLost {

    static final int SLOTS = 1 << 16;
    private static final int SLOT_BITS = 16;
    private static final int TAG_BITS = 24;
    private static final long TAG_MASK = (1L << TAG_BITS) - 1;
    /** Microseconds since {@link #baseNanos} fit in the 40 bits left: 12.7 days. */
    private static final long MAX_MICROS = (1L << (64 - TAG_BITS)) - 2;

    /** Not a time {@link System#nanoTime()} gives in practice (it may be negative). */
    static final long UNKNOWN = Long.MIN_VALUE;

    private final long baseNanos;
    /** 0: empty; else (microseconds since base + 1) << TAG_BITS | the sequence number's bits above the slot's. */
    private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

    RecentlyLost(long baseNanos) {
        this.baseNanos = baseNanos;
    }

    /** Message {@code sequence} (its id's counter), sent at {@code sentNanos}, was declared LOST. */
    void lost(long sequence, long sentNanos) {
        long micros = TimeUnit.NANOSECONDS.toMicros(sentNanos - baseNanos);
        if (sequence < 0 || micros < 0 || micros > MAX_MICROS) {
            return;
        }
        slots.set(slot(sequence), (micros + 1) << TAG_BITS | tag(sequence));
    }

    /** When message {@code sequence} was sent ({@link System#nanoTime()}, to the microsecond); else UNKNOWN. */
    long sentNanos(long sequence) {
        if (sequence < 0) {
            return UNKNOWN;
        }
        long value = slots.get(slot(sequence));
        if (value == 0 || (value & TAG_MASK) != tag(sequence)) {
            return UNKNOWN;
        }
        return baseNanos + TimeUnit.MICROSECONDS.toNanos((value >>> TAG_BITS) - 1);
    }

    private static int slot(long sequence) {
        return (int) (sequence & (SLOTS - 1));
    }

    private static long tag(long sequence) {
        return (sequence >>> SLOT_BITS) & TAG_MASK;
    }
}
