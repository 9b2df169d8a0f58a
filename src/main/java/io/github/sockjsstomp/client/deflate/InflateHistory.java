package io.github.sockjsstomp.client.deflate;

/**
 * What a session's server may still refer to: the last bytes it sent compressed (RFC 7692's LZ77 window, 32 KB
 * unless the server said a smaller {@code server_max_window_bits}). A server that keeps its context compresses each
 * message against the ones before, so the client must keep them; kept here on the heap, and only as much as the
 * server has sent, a held session that received a CONNECTED and heart-beats keeps a few hundred bytes where a zlib
 * inflater of its own would keep 40 KB.
 */
final class InflateHistory {

    private static final byte[] NONE = new byte[0];
    private static final int FIRST_BYTES = 256;

    private final int limit;
    private byte[] bytes = NONE;
    private int length;

    /** @param limit the server's window, in bytes */
    InflateHistory(int limit) {
        this.limit = limit;
    }

    void append(byte[] source, int offset, int count) {
        if (count >= limit) {
            ensureCapacity(limit, 0);
            System.arraycopy(source, offset + count - limit, bytes, 0, limit);
            length = limit;
            return;
        }
        int keep = Math.min(length, limit - count);
        ensureCapacity(keep + count, keep);
        if (keep < length) {
            System.arraycopy(bytes, length - keep, bytes, 0, keep);
        }
        System.arraycopy(source, offset, bytes, keep, count);
        length = keep + count;
    }

    /** Makes room for {@code needed} bytes, keeping the last {@code keep} at the start when it must move them. */
    private void ensureCapacity(int needed, int keep) {
        if (needed <= bytes.length) {
            return;
        }
        int capacity = Math.min(limit, Math.max(needed, Math.max(FIRST_BYTES, bytes.length * 2)));
        byte[] grown = new byte[capacity];
        System.arraycopy(bytes, length - keep, grown, 0, keep);
        bytes = grown;
        length = keep;
    }

    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    int limit() {
        return limit;
    }
}
