package io.github.sockjsstomp.client.user;

/**
 * Which messages are NACKed, spread evenly and the same in every run: each message adds the share to an
 * accumulator, and the message that brings it to one whole is NACKed (share 0.25: the 4th, 8th, 12th...). Kept in
 * millionths, so a share written with up to six decimals adds up exactly (ten times 0.1 is one NACK, not none).
 * Not thread-safe: one per subscription, called under its lock.
 */
final class NackSpread {

    private static final long WHOLE = 1_000_000L;

    private final long share;
    private long accumulated;

    NackSpread(double share) {
        this.share = Math.round(share * WHOLE);
    }

    /** Whether the next message is NACKed. */
    boolean nextIsNacked() {
        if (share == 0) {
            return false;
        }
        accumulated += share;
        if (accumulated >= WHOLE) {
            accumulated -= WHOLE;
            return true;
        }
        return false;
    }
}
