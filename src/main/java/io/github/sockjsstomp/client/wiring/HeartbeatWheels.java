package io.github.sockjsstomp.client.wiring;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * The scheduler of every session's STOMP heart-beats and inactivity checks, and of the receipt and silence timers:
 * timing wheels, each on a thread of its own, that wake once a tick and run what is due.
 *
 * <p>Why not Spring's {@code ThreadPoolTaskScheduler}: each held session has two periodic checks (write
 * inactivity every half heart-beat, read inactivity every one and a half), all in one {@code DelayedWorkQueue}. At
 * 15,000 held sessions with 10 s heart-beats that is 30,000 entries and about 4,000 runs a second, each a
 * logarithmic sift under the queue's lock and a wake-up of a scheduler thread of its own; in a connect test the
 * sift alone was the top frame of the profile (bench/RESULTS.md). Here a schedule is a constant-time add, and a
 * wheel's thread wakes {@code 1000 / tickMillis} times a second whatever the sessions, and not at all while it has
 * nothing to run. A task runs up to a tick late, never early: heart-beats and their checks are seconds apart.
 *
 * <p>Tasks run on the wheel's thread, as they ran on the scheduler's: a heart-beat is a write, bounded by the
 * session's send time limit. The sessions are spread over the wheels, so one slow write holds back only its
 * wheel's share. A periodic task that throws is logged and runs again, as with Spring's scheduler; a one-shot
 * task's failure is logged and kept in its future.
 */
public final class HeartbeatWheels implements TaskScheduler {

    private static final Logger log = LoggerFactory.getLogger(HeartbeatWheels.class);
    /** A power of two: a tick's slot is its number masked. 512 ticks of 25 ms are 12.8 s, about one heart-beat. */
    private static final int SLOTS = 512;

    private final Wheel[] wheels;
    private final AtomicInteger nextWheel = new AtomicInteger();
    private final long tickNanos;

    /**
     * @param threads wheels, each a daemon thread named {@code <namePrefix><n>}, started on its first task
     * @param tickMillis how late a task may run at most
     */
    public HeartbeatWheels(int threads, long tickMillis, String namePrefix) {
        if (threads < 1 || tickMillis < 1) {
            throw new IllegalArgumentException(
                    "threads and tickMillis must be 1 or more: " + threads + ", " + tickMillis);
        }
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
        this.wheels = new Wheel[threads];
        for (int i = 0; i < threads; i++) {
            wheels[i] = new Wheel(namePrefix + (i + 1));
        }
    }

    @Override
    public Clock getClock() {
        return Clock.systemDefaultZone();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        return add(new WheelTask(task, nanosUntil(startTime), 0, false));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        SimpleTriggerContext context = new SimpleTriggerContext(getClock());
        Instant first = trigger.nextExecution(context);
        if (first == null) {
            return null; // as Spring's scheduler: a trigger with no execution schedules nothing
        }
        WheelTask wheelTask = new WheelTask(task, nanosUntil(first), 0, true);
        wheelTask.trigger = trigger;
        wheelTask.context = context;
        wheelTask.scheduled = first;
        return add(wheelTask);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        return add(new WheelTask(task, nanosUntil(startTime), positive(period), true));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        return add(new WheelTask(task, System.nanoTime(), positive(period), true));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        return add(new WheelTask(task, nanosUntil(startTime), -positive(delay), true));
    }

    /** As Spring's scheduler: the first run at once, the next {@code delay} after each run ends. */
    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        return add(new WheelTask(task, System.nanoTime(), -positive(delay), true));
    }

    /** Tasks scheduled and neither done nor cancelled-and-dropped yet, over all wheels; for tests. */
    int pending() {
        int pending = 0;
        for (Wheel wheel : wheels) {
            pending += wheel.size + wheel.added.size();
        }
        return pending;
    }

    private WheelTask add(WheelTask task) {
        Wheel wheel = wheels[Math.floorMod(nextWheel.getAndIncrement(), wheels.length)];
        task.wheel = wheel;
        wheel.add(task);
        return task;
    }

    private long nanosUntil(Instant time) {
        return System.nanoTime()
                + Math.max(0, Duration.between(getClock().instant(), time).toNanos());
    }

    private static long positive(Duration period) {
        long nanos = period.toNanos();
        if (nanos <= 0) {
            throw new IllegalArgumentException("period must be positive: " + period);
        }
        return nanos;
    }

    /** One wheel: slots of tasks by the tick they are due, turned by its own thread. */
    private final class Wheel implements Runnable {

        private final String name;
        /** Scheduled from any thread; the wheel's thread moves them into their slots. */
        private final ConcurrentLinkedQueue<WheelTask> added = new ConcurrentLinkedQueue<>();

        @SuppressWarnings("unchecked")
        private final List<WheelTask>[] slots = new List[SLOTS];
        /** Tasks in the slots: written by the wheel's thread alone. */
        private volatile int size;
        /** The last tick run, counted from {@link #originNanos}. */
        private long tick;

        private long originNanos;
        private Thread thread;
        private volatile boolean parkedEmpty;

        Wheel(String name) {
            this.name = name;
            for (int i = 0; i < SLOTS; i++) {
                slots[i] = new ArrayList<>(0);
            }
        }

        void add(WheelTask task) {
            added.add(task);
            synchronized (this) {
                if (thread == null) {
                    thread = new Thread(this, name);
                    thread.setDaemon(true);
                    thread.start();
                    return;
                }
            }
            if (parkedEmpty) {
                LockSupport.unpark(thread);
            }
        }

        @Override
        public void run() {
            originNanos = System.nanoTime();
            while (true) {
                moveAdded();
                if (size == 0) {
                    parkedEmpty = true;
                    if (added.isEmpty()) {
                        LockSupport.park(this);
                    }
                    parkedEmpty = false;
                    // slept with nothing due: the ticks it slept through had nothing to run
                    tick = Math.max(tick, (System.nanoTime() - originNanos) / tickNanos);
                    continue;
                }
                long wait = originNanos + (tick + 1) * tickNanos - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                    continue;
                }
                tick++;
                runDue();
            }
        }

        private void moveAdded() {
            WheelTask task;
            while ((task = added.poll()) != null) {
                place(task);
            }
        }

        /** Into the slot of the first tick at or after its time, and never the tick under way. */
        private void place(WheelTask task) {
            long due = Math.max(tick + 1, Math.floorDiv(task.timeNanos - originNanos + tickNanos - 1, tickNanos));
            task.dueTick = due;
            slots[(int) (due & (SLOTS - 1))].add(task);
            size++;
        }

        private void runDue() {
            List<WheelTask> slot = slots[(int) (tick & (SLOTS - 1))];
            if (slot.isEmpty()) {
                return;
            }
            // a later turn's tasks stay; the due ones run once the slot is rebuilt, so that one rescheduled
            // into this very slot (a period of a whole turn) waits for the next turn
            List<WheelTask> due = new ArrayList<>();
            int kept = 0;
            for (int i = 0; i < slot.size(); i++) {
                WheelTask task = slot.get(i);
                if (task.isCancelled()) {
                    size--;
                } else if (task.dueTick <= tick) {
                    due.add(task);
                    size--;
                } else {
                    slot.set(kept++, task);
                }
            }
            slot.subList(kept, slot.size()).clear();
            for (WheelTask task : due) {
                if (task.runOnce()) {
                    place(task);
                }
            }
        }
    }

    /** A task on a wheel: one-shot ({@code period} 0), fixed rate (above 0), fixed delay (below 0), or triggered. */
    private final class WheelTask extends FutureTask<Void> implements ScheduledFuture<Void> {

        private final long period;
        private Wheel wheel;
        /** When it is due next, on {@link System#nanoTime}'s scale. */
        private long timeNanos;

        private long dueTick;
        private Trigger trigger;
        private SimpleTriggerContext context;
        private Instant scheduled;

        WheelTask(Runnable task, long timeNanos, long period, boolean repeating) {
            super(repeating ? suppressed(task) : task, null);
            this.timeNanos = timeNanos;
            this.period = period;
        }

        /** Runs it; true when it is due again, its next time set. */
        boolean runOnce() {
            if (trigger != null) {
                Instant actual = getClock().instant();
                if (!runAndReset()) {
                    return false;
                }
                context.update(scheduled, actual, getClock().instant());
                scheduled = trigger.nextExecution(context);
                if (scheduled == null) {
                    set(null);
                    return false;
                }
                timeNanos = nanosUntil(scheduled);
                return true;
            }
            if (period == 0) {
                run();
                return false;
            }
            if (!runAndReset()) {
                return false;
            }
            timeNanos = period > 0 ? timeNanos + period : System.nanoTime() - period;
            return true;
        }

        @Override
        protected void setException(Throwable failure) {
            log.warn("A scheduled task failed on {}", wheel.name, failure);
            super.setException(failure);
        }

        /** Never interrupts: the wheel's thread runs every other session's heart-beats. */
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return super.cancel(false);
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(timeNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }

    /** A periodic task's failure is logged and the task runs again, as Spring's scheduler does. */
    private static Runnable suppressed(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                log.warn("A periodic scheduled task failed; it runs again", e);
            }
        };
    }
}
