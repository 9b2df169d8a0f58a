package io.github.sockjsstomp.client.user;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;

/** A scheduler that runs its one-off tasks when the test says so, whatever their time. */
final class ManualScheduler implements TaskScheduler {

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    /** Runs the tasks scheduled so far, not those they schedule; returns how many ran. */
    int runAll() {
        int ran = tasks.size();
        for (int i = 0; i < ran; i++) {
            tasks.poll().run();
        }
        return ran;
    }

    int scheduled() {
        return tasks.size();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        tasks.add(task);
        return null;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        throw new UnsupportedOperationException();
    }
}
