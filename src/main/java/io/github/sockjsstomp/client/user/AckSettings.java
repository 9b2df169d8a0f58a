package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.message.AckMode;

/**
 * How a virtual user consumes what its subscriptions deliver: the acknowledgement mode its SUBSCRIBEs ask for, how
 * often a {@code client} subscription sends its cumulative ACK, how long the consumer takes over each message before
 * it acknowledges it, and which share of the messages it NACKs instead.
 *
 * @param mode STOMP's {@code ack}; {@link AckMode#AUTO} sends nothing and changes nothing on the receive path
 * @param ackEvery with {@link AckMode#CLIENT}: one cumulative ACK every this many messages (from 1), and one for the
 *     rest when the session is closed
 * @param consumeMillis the consumer's processing time per message, from 0: one message after another, as one
 *     consumer thread would (message i is done at {@code max(its arrival, message i-1 done) + consumeMillis}); held
 *     on the shared scheduler, never a thread per user
 * @param nackShare the share of first deliveries (0 to 1) NACKed instead of ACKed, spread evenly ({@link NackSpread});
 *     a redelivered message is always ACKed
 * @param counts the run's counts, shared by every user
 * @param stepped the consume time a stepped run sets for every user of the run ({@code stepKind=consume}), in place
 *     of {@code consumeMillis} once set
 */
public record AckSettings(
        AckMode mode,
        int ackEvery,
        long consumeMillis,
        double nackShare,
        AckCounts counts,
        SteppedConsumeTime stepped) {

    /** STOMP's default: nothing acknowledged, nothing counted. */
    public static final AckSettings AUTO = new AckSettings(AckMode.AUTO, 1, 0, 0, new AckCounts());

    /** Settings whose consume time no steps change. */
    public AckSettings(AckMode mode, int ackEvery, long consumeMillis, double nackShare, AckCounts counts) {
        this(mode, ackEvery, consumeMillis, nackShare, counts, new SteppedConsumeTime());
    }

    /** @throws IllegalArgumentException naming the setting out of its range */
    public AckSettings {
        if (mode == null || counts == null || stepped == null) {
            throw new IllegalArgumentException("mode, counts and the stepped consume time are required");
        }
        if (ackEvery < 1) {
            throw new IllegalArgumentException("ackEvery " + ackEvery + " is below 1");
        }
        if (consumeMillis < 0) {
            throw new IllegalArgumentException("consumeMillis " + consumeMillis + " is negative");
        }
        if (!(nackShare >= 0 && nackShare <= 1)) {
            throw new IllegalArgumentException("nackShare " + nackShare + " is outside 0 to 1");
        }
        if (nackShare > 0 && mode == AckMode.AUTO) {
            throw new IllegalArgumentException("nackShare " + nackShare + " with ack auto: nothing can be NACKed");
        }
    }

    /** Whether the user sends acknowledgements at all. */
    public boolean acknowledges() {
        return mode != AckMode.AUTO;
    }
}
