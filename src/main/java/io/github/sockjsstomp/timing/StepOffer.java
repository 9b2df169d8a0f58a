package io.github.sockjsstomp.timing;

/**
 * A stepped run's steps as the threads that follow them read them: what is offered when, and what the followers
 * tell back. The run holds its steps by this interface ({@link Run#steps}) because the steps themselves
 * ({@code steps.Stepper}, which implements it) live below {@code timing} in the import order, and a run's parts are
 * typed fields, not a bag keyed by type.
 */
public interface StepOffer {

    /** The steps' kind as the steps sampler's {@code stepKind} names it: rate, users, looping or consume. */
    String kind();

    /** What this engine offers at {@code epochMs}: 0 before the first step, after the last, and once stopped. */
    double offeredAt(long epochMs);

    /** Whether a step's ramp is under way at {@code epochMs} (the offer moves continuously). */
    boolean ramping(long epochMs);

    /** When the offer next changes by a step's boundary after {@code epochMs}; {@code Long.MAX_VALUE}: never. */
    long nextChangeEpochMs(long epochMs);

    /** A scheduled sender following the steps wakes at most once per {@code tickMillis}. */
    void senderTick(long tickMillis);

    /** A scheduled sender's wake-up, {@code lagNanos} behind its schedule (negative: early). */
    void sendLag(long lagNanos);
}
