package io.github.sockjsstomp.client.deflate;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The JVM's zlib streams, lent to a session for one message and given back at its end. A zlib deflater holds about
 * 270 KB of native memory and an inflater about 40 KB: one of each per session (what Tomcat's own permessage-deflate
 * keeps) would be 300 KB for every session a generator holds, where a browser pays it once. Lent per message, the
 * JVM keeps about as many as messages are compressed or read at the same moment: a few per core.
 */
final class ZlibPool {

    /** A deflater and the buffer its output lands in before it becomes a frame. */
    static final class Deflating {
        final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        private byte[] output = new byte[OUTPUT_BYTES];

        byte[] output() {
            return output;
        }

        byte[] grown() {
            output = Arrays.copyOf(output, output.length * 2);
            return output;
        }

        /** A big message's buffer is not kept for the small ones after it. */
        void shrink() {
            if (output.length > KEPT_OUTPUT_BYTES) {
                output = new byte[OUTPUT_BYTES];
            }
        }
    }

    /** An inflater and the buffer the frame's compressed bytes are read into (the inflater reads from it). */
    static final class Inflating {
        final Inflater inflater;
        final ByteBuffer input;

        Inflating() {
            this(new Inflater(true), INPUT_BYTES);
        }

        private Inflating(Inflater inflater, int inputBytes) {
            this.inflater = inflater;
            this.input = ByteBuffer.allocate(inputBytes);
        }
    }

    private static final int OUTPUT_BYTES = 1024;
    private static final int KEPT_OUTPUT_BYTES = 64 * 1024;
    private static final int INPUT_BYTES = 8 * 1024;
    /** A kept inflater's input: a session's frames are read through it in pieces of this size. */
    private static final int KEPT_INPUT_BYTES = 1024;

    /** Every session of the JVM borrows from here. */
    static final ZlibPool SHARED =
            new ZlibPool(Math.max(8, 4 * Runtime.getRuntime().availableProcessors()));

    /** Idle streams, a slot each: lending and taking back allocate nothing (this runs for every message). */
    private final AtomicReferenceArray<Deflating> idleDeflaters;

    private final AtomicReferenceArray<Inflating> idleInflaters;
    private final AtomicLong deflatersMade = new AtomicLong();
    private final AtomicLong inflatersMade = new AtomicLong();
    private final AtomicLong inflatersKept = new AtomicLong();

    /** @param idleLimit how many of each kind are kept when given back; more are ended (their memory freed) */
    ZlibPool(int idleLimit) {
        this.idleDeflaters = new AtomicReferenceArray<>(idleLimit);
        this.idleInflaters = new AtomicReferenceArray<>(idleLimit);
    }

    Deflating deflating() {
        Deflating idle = take(idleDeflaters);
        if (idle != null) {
            return idle;
        }
        deflatersMade.incrementAndGet();
        return new Deflating();
    }

    /** Takes a deflater back, reset for its next message (or ended, when enough are idle). */
    void giveBack(Deflating deflating) {
        deflating.deflater.reset();
        deflating.shrink();
        if (!put(idleDeflaters, deflating)) {
            deflating.deflater.end();
        }
    }

    Inflating inflating() {
        Inflating idle = take(idleInflaters);
        if (idle != null) {
            return idle;
        }
        inflatersMade.incrementAndGet();
        return new Inflating();
    }

    /** Takes an inflater back, reset for its next message (or ended, when enough are idle). */
    void giveBack(Inflating inflating) {
        inflating.inflater.reset();
        inflating.input.clear();
        if (!put(idleInflaters, inflating)) {
            inflating.inflater.end();
        }
    }

    /**
     * An inflater a session keeps from now on, its window the server's so far ({@code window}), with a small input
     * buffer: made here at once rather than taken from the idle ones, so that the two are allocated side by side and
     * the inflater's reference to its buffer stays within one heap region (no card for the collector to refine when
     * the buffer is given again for every message).
     */
    Inflating keep(byte[] window, int length) {
        Inflating kept = new Inflating(new Inflater(true), KEPT_INPUT_BYTES);
        kept.inflater.setDictionary(window, 0, length);
        inflatersMade.incrementAndGet();
        inflatersKept.incrementAndGet();
        return kept;
    }

    private static <T> T take(AtomicReferenceArray<T> slots) {
        for (int i = 0; i < slots.length(); i++) {
            T idle = slots.get(i);
            if (idle != null && slots.compareAndSet(i, idle, null)) {
                return idle;
            }
        }
        return null;
    }

    private static <T> boolean put(AtomicReferenceArray<T> slots, T stream) {
        for (int i = 0; i < slots.length(); i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, stream)) {
                return true;
            }
        }
        return false;
    }

    /** Deflaters made since the JVM started: as many as were ever in use at once, not one per session. */
    long deflatersMade() {
        return deflatersMade.get();
    }

    /** Inflaters made since the JVM started. */
    long inflatersMade() {
        return inflatersMade.get();
    }

    /** Inflaters made for sessions to keep (each counts in {@link #inflatersMade} too). */
    long inflatersKept() {
        return inflatersKept.get();
    }
}
