package io.github.sockjsstomp.loops;

import java.util.ArrayList;
import java.util.List;

/**
 * A sender's clock that moves only when the sender sleeps (or the test moves it), with the thread's end time the test
 * sets: what a sender waits is read from {@link #sleeps}, on numbers, and no test sleeps. Starts at 0 with no end
 * time. A sleep interrupted (JMeter's Stop) throws at once and moves nothing, as a thread's sleep does.
 */
final class TestClock implements SenderClock {

    private long nowNanos;
    /** The thread's end time on this clock; {@code Long.MAX_VALUE}: none. */
    private long endNanos = Long.MAX_VALUE;

    /** Every sleep the sender asked for, in order. */
    final List<Long> sleeps = new ArrayList<>();

    /** Moves the clock on, as the time a sender spends outside its sleeps (sending, or between samples). */
    void advance(long nanos) {
        nowNanos += nanos;
    }

    /** The thread's end time comes {@code nanos} from now (0 or less: it has passed). */
    void endsIn(long nanos) {
        endNanos = nowNanos + nanos;
    }

    @Override
    public long nanoTime() {
        return nowNanos;
    }

    @Override
    public long nanosToEnd() {
        return endNanos == Long.MAX_VALUE ? Long.MAX_VALUE : endNanos - nowNanos;
    }

    @Override
    public void sleep(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        sleeps.add(nanos);
        nowNanos += nanos;
    }

    @Override
    public String toString() {
        return "TestClock[now " + nowNanos + " ns, " + sleeps.size() + " sleeps]";
    }
}
