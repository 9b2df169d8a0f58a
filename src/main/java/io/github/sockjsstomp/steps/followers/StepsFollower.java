package io.github.sockjsstomp.steps.followers;

import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.threadusers.UserShare;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.StepOffer;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;

/**
 * A thread's share of the run's steps, for a sampler that follows them: the scheduled sender's rate (rate steps)
 * or the session sampler's users (users steps). The steps sampler may set up after this thread (JMeter sets a
 * Java sampler up in its thread's first sample), so the run's steps ({@link Run#steps}) are looked up until found;
 * a run without steps costs one read of a field per tick.
 */
public final class StepsFollower {

    /** The longest untimed wait for the next step, so JMeter's end time and Stop are seen. */
    private static final long LONGEST_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How often a follower looks at the offer while a ramp moves it. */
    private static final long RAMP_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Run run;
    private final int threads;
    /** This thread's share of the engine's offer: 1 / the thread group's threads. */
    private final double share;

    private StepOffer stepper;

    /** A scheduled sender's tick (0: a session sampler): the steps' generator check allows lag within two. */
    private final long tickMillis;

    public StepsFollower(Run run, int threads, long tickMillis) {
        this.run = run;
        this.tickMillis = tickMillis;
        this.threads = Math.max(1, threads);
        this.share = 1.0 / this.threads;
    }

    /** Whether the run has steps (a steps sampler set them up). */
    boolean active() {
        if (stepper == null && run != null) {
            stepper = run.steps();
            if (stepper != null) {
                stepper.senderTick(tickMillis);
            }
        }
        return stepper != null;
    }

    /** Whether the run has steps of that kind: a rate step moves the senders, a users step the session sampler. */
    public boolean steps(StepKind kind) {
        return active() && stepper.kind().equals(kind.parameter);
    }

    /** This thread's share of the offered rate now, in messages per second (the steps' and the senders' unit). */
    public double perSecondNow() {
        return stepper.offeredAt(System.currentTimeMillis()) * share;
    }

    /** How long until the offer changes by a step's boundary, at most a second. */
    public long nanosToNextChange() {
        if (stepper == null) {
            return LONGEST_WAIT_NANOS;
        }
        long now = System.currentTimeMillis();
        if (stepper.ramping(now)) {
            return RAMP_WAIT_NANOS; // the offer moves all through a ramp
        }
        long next = stepper.nextChangeEpochMs(now);
        long millis = next == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, next - now);
        return Math.min(LONGEST_WAIT_NANOS, TimeUnit.MILLISECONDS.toNanos(Math.min(millis, 1000)));
    }

    /**
     * How many of this thread's {@code count} users the steps let online now: its share (as {@link UserShare}
     * splits users over threads) of the users the step under way offers; all of them when the run has no steps.
     *
     * @param thread this thread's number in its group, 1-based
     */
    public int usersNow(int count, int thread) {
        return usersNow(count, thread, StepKind.USERS);
    }

    /** As {@link #usersNow(int, int)}, for steps of {@code kind}: online users, or looping users. */
    public int usersNow(int count, int thread, StepKind kind) {
        if (!steps(kind)) {
            return count; // no steps, or steps of another kind: every user online (looping) from the start
        }
        long offered = (long) Math.floor(stepper.offeredAt(System.currentTimeMillis()) + 1e-9);
        return Math.min(
                count, UserShare.of(offered, threads, Math.min(thread, threads)).count());
    }

    /** Waits (untimed) until the next step's boundary, at most a second; a result JMeter does not report. */
    public SampleResult awaitNextChange() {
        try {
            TimeUnit.NANOSECONDS.sleep(nanosToNextChange());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // JMeter's Stop
        }
        SampleResult nothing = new SampleResult();
        nothing.setIgnore();
        return nothing;
    }

    /** A scheduled sender's wake-up, {@code lagNanos} behind its schedule. */
    public void sendLag(long lagNanos) {
        if (stepper != null) {
            stepper.sendLag(lagNanos);
        }
    }
}
