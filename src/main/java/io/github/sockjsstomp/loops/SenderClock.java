package io.github.sockjsstomp.loops;

import java.util.concurrent.TimeUnit;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;

/**
 * A sender's time: the nanosecond clock, how long until the JMeter thread's end time, and the sleep until its next
 * wake-up. The senders run on {@link #JMETER}; a unit test gives a clock of its own, which moves only when the sender
 * sleeps, so that what a sender decides in time (how long it waits, what it does when the end time comes first) is
 * tested on numbers, without sleeping.
 */
interface SenderClock {

    /** Now, in nanoseconds ({@link System#nanoTime()}'s clock on {@link #JMETER}). */
    long nanoTime();

    /**
     * Nanoseconds until the thread's end time (its thread group's duration): 0 or less once it has passed,
     * {@link Long#MAX_VALUE} when the thread has none.
     */
    long nanosToEnd();

    /** Sleeps {@code nanos}, more than 0; JMeter's Stop interrupts it. */
    void sleep(long nanos) throws InterruptedException;

    /** The JVM's nanosecond clock, the JMeter thread's end time on the epoch clock, and the thread's sleep. */
    SenderClock JMETER = new SenderClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long nanosToEnd() {
            JMeterThread thread = JMeterContextService.getContext().getThread();
            long endMillis = thread == null ? 0 : thread.getEndTime();
            if (endMillis <= 0) {
                return Long.MAX_VALUE;
            }
            return TimeUnit.MILLISECONDS.toNanos(endMillis - System.currentTimeMillis());
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }

        @Override
        public String toString() {
            return "SenderClock.JMETER";
        }
    };
}
