package io.github.sockjsstomp.client.user;

/**
 * How a virtual user behaves beyond what it connects with, fixed for its life: how its subscriptions acknowledge,
 * whether each of its sessions goes silent (a dead client) and when, and who hears of its lost sessions. Given to
 * the user when it is made, so its connects and subscriptions read it from any thread without a barrier.
 *
 * @param acks how the subscriptions acknowledge (the SUBSCRIBE's {@code ack} header and the ACKs it calls for)
 * @param silentAfterMillis how long after each connect the session goes silent, from 0; {@link #NEVER_SILENT}: never
 * @param silence told of each session that went silent and of each the server then closed; null when never silent
 * @param losses told of each lost session at the time the user learns it
 */
public record UserBehaviour(
        AckSettings acks, long silentAfterMillis, Silence.Listener silence, SessionLoss.Listener losses) {

    public static final long NEVER_SILENT = -1;

    /** STOMP's defaults: ack auto, never silent, losses told to no one. */
    public static final UserBehaviour PLAIN =
            new UserBehaviour(AckSettings.AUTO, NEVER_SILENT, null, (cause, epochMs, replaces) -> {});

    /** @throws IllegalArgumentException naming what is missing or out of range */
    public UserBehaviour {
        if (acks == null || losses == null) {
            throw new IllegalArgumentException("acks and the losses' listener are required");
        }
        if (silentAfterMillis < NEVER_SILENT) {
            throw new IllegalArgumentException("silentAfterMillis " + silentAfterMillis + " is below 0");
        }
        if (silentAfterMillis != NEVER_SILENT && silence == null) {
            throw new IllegalArgumentException("a user that goes silent needs a listener for its silence");
        }
    }

    /** This behaviour, its subscriptions acknowledging as {@code settings} say. */
    public UserBehaviour consumingWith(AckSettings settings) {
        return new UserBehaviour(settings, silentAfterMillis, silence, losses);
    }

    /** This behaviour, each session going silent {@code afterMillis} after it connected, told to {@code listener}. */
    public UserBehaviour silentAfter(long afterMillis, Silence.Listener listener) {
        return new UserBehaviour(acks, afterMillis, listener, losses);
    }

    /** This behaviour, each lost session told to {@code listener}. */
    public UserBehaviour tellingLossesTo(SessionLoss.Listener listener) {
        return new UserBehaviour(acks, silentAfterMillis, silence, listener);
    }

    /** Whether the user's sessions go silent. */
    public boolean goesSilent() {
        return silentAfterMillis != NEVER_SILENT;
    }

    /** The silence of one session of user {@code name}; null unless it goes silent. */
    Silence newSilence(String name) {
        return goesSilent() ? new Silence(silence, name) : null;
    }
}
