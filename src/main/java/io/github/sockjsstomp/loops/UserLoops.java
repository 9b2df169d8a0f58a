package io.github.sockjsstomp.loops;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Where each of a thread's users is in its closed loop (the send sampler's {@code loop=closed}): sending, waiting
 * for its message's outcome, thinking for {@code pauseMillis} after it, or down (its session gone, waiting to
 * connect again). One JMeter thread owns it and drives every user from it without waiting on any one of them.
 *
 * <p>Threads: {@link #settled} is the only method another thread calls, from wherever a message's outcome is
 * settled (the I/O thread that read its reply or receipt, the expiry sweeper that declared it LOST, the thread whose
 * write failed). It queues the user and, with no pause, wakes the owner only if the owner is parked, so outcomes that
 * arrive while the owner works cost no wake-up: one wake-up serves every outcome queued by then. With a pause the
 * owner takes them at its own pace (see {@link #settled}). Everything else is the owner's.
 *
 * <p>Due times: a user thinks from the moment its outcome came (its reply read, its timeout passed), not from when
 * the owner took it, up to a tick later: the pause is the user's, the tick is the generator's. Outcomes are taken in
 * about the order they came, so with one pause for every user the thinking users fall due in the order they were
 * queued: a FIFO, not a heap (one taken out of order, a few microseconds early, waits for the one queued before
 * it). Users due at once (connected again, or
 * with no pause) go to a queue of their own ahead of it. Times are {@link System#nanoTime()} values the caller
 * passes in, so tests drive the loop with numbers.
 */
final class UserLoops {

    enum State {
        /** Due to send: in {@link #ready} or {@link #thinking}. */
        DUE,
        /** Its message is in flight: the next comes after its outcome. */
        IN_FLIGHT,
        /** Its session is gone: it sends again once connected ({@link #connected}). */
        DOWN,
        /** Beyond the users a step lets loop: connected, sending nothing until a step lets it ({@link #looping}). */
        IDLE
    }

    private final long pauseNanos;
    private final Thread owner;
    /** One boxed index per user, made once: queuing an outcome allocates no Integer. */
    private final Integer[] indexes;

    private final State[] states;
    private final long[] dueNanos;
    private final ArrayDeque<Integer> ready = new ArrayDeque<>();
    private final ArrayDeque<Integer> thinking = new ArrayDeque<>();
    private final Queue<Integer> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean parked = new AtomicBoolean();
    private boolean started;
    /** Users 0 .. looping - 1 loop; the others go idle when they fall due (a stepped run's share of its users). */
    private int looping = Integer.MAX_VALUE;

    private int down;
    private int inFlight;

    /**
     * @param users the thread's users, 1 or more
     * @param pauseMillis each user's think time after its message's outcome, 0 or more
     * @param owner the thread that drives the loop: the one {@link #settled} wakes
     */
    UserLoops(int users, long pauseMillis, Thread owner) {
        if (users < 1) {
            throw new IllegalArgumentException("users must be 1 or more, was " + users);
        }
        if (pauseMillis < 0) {
            throw new IllegalArgumentException("pauseMillis must be 0 or more, was " + pauseMillis);
        }
        this.pauseNanos = TimeUnit.MILLISECONDS.toNanos(pauseMillis);
        this.owner = owner;
        this.indexes = new Integer[users];
        this.states = new State[users];
        this.dueNanos = new long[users];
        for (int i = 0; i < users; i++) {
            indexes[i] = i;
            states[i] = State.DUE;
        }
    }

    int size() {
        return states.length;
    }

    /**
     * The loop starts at {@code nowNanos}: user i sends first at {@code now + i x pause / users}, so a thread's users
     * spread their first messages over one pause instead of sending them in one burst. Once; later calls do nothing.
     */
    void start(long nowNanos) {
        if (started) {
            return;
        }
        started = true;
        int users = states.length;
        for (int i = 0; i < users; i++) {
            dueNanos[i] = nowNanos + (long) ((double) pauseNanos * i / users);
            thinking.add(indexes[i]);
        }
    }

    boolean started() {
        return started;
    }

    State state(int user) {
        return states[user];
    }

    /**
     * Any thread: user {@code user}'s message has its outcome. With no pause the user is due at once, so this wakes
     * the owner if it is parked; with a pause the owner takes outcomes at its own pace ({@link #await}'s bound), since
     * the user sends only a pause later anyway: one wake-up for every outcome of a tick, not one per outcome.
     */
    void settled(int user) {
        outcomes.add(indexes[user]);
        if (pauseNanos == 0 && parked.compareAndSet(true, false)) {
            LockSupport.unpark(owner);
        }
    }

    /** Whether an outcome wakes the owner ({@link #settled}): only when no pause is due after it. */
    boolean outcomesWake() {
        return pauseNanos == 0;
    }

    /**
     * Owner: the next user whose outcome came, -1 if none is queued. The caller reads the outcome (the user's last
     * message), then says when it came ({@link #thinksSince}) before that user can send again.
     */
    int takeSettled() {
        Integer user = outcomes.poll();
        if (user == null) {
            return -1;
        }
        if (states[user] == State.IN_FLIGHT) {
            inFlight--;
        }
        return user;
    }

    /**
     * Owner: user {@code user}, just taken ({@link #takeSettled}), thinks until {@code sinceNanos + pauseMillis}:
     * {@code sinceNanos} is when its outcome came (at most the owner's now).
     */
    void thinksSince(int user, long sinceNanos) {
        due(user, sinceNanos + pauseNanos);
    }

    /**
     * Owner: the next user due to send by {@code nowNanos}, -1 if none; the caller sends, or finds it down. A user
     * due beyond those looping goes idle instead.
     */
    int takeDue(long nowNanos) {
        while (true) {
            Integer user = ready.poll();
            if (user == null) {
                Integer first = thinking.peek();
                if (first == null || dueNanos[first] - nowNanos > 0) {
                    return -1;
                }
                user = thinking.poll();
            }
            if (user < looping) {
                return user;
            }
            states[user] = State.IDLE;
        }
    }

    /**
     * Owner: users 0 .. {@code count} - 1 loop (a step's share of the thread's users); an idle user among them is
     * due at once, one beyond them goes idle when it next falls due (its message in flight ends as any other).
     */
    void looping(int count) {
        looping = count;
        for (int user = 0; user < Math.min(count, states.length); user++) {
            if (states[user] == State.IDLE) {
                states[user] = State.DUE;
                ready.add(indexes[user]);
            }
        }
    }

    /** Owner: user {@code user}'s message was written; its next comes after its outcome ({@link #settled}). */
    void sent(int user) {
        states[user] = State.IN_FLIGHT;
        inFlight++;
    }

    /** Owner: how many users have a message in flight (sent, its outcome not taken). */
    int inFlight() {
        return inFlight;
    }

    /**
     * Owner: user {@code user} sent nothing (its write failed at once, its outcome is known): it thinks until
     * {@code nowNanos + pauseMillis}, as after any outcome.
     */
    void failedAtOnce(int user, long nowNanos) {
        due(user, nowNanos + pauseNanos);
    }

    /** Owner: user {@code user}, due, found its session gone: it waits for {@link #connected}. */
    void down(int user) {
        if (states[user] != State.DOWN) {
            states[user] = State.DOWN;
            down++;
        }
    }

    /** Owner: how many users are down. */
    int downCount() {
        return down;
    }

    /** Owner: user {@code user} is connected again and sends at once. */
    void connected(int user) {
        if (states[user] == State.DOWN) {
            down--;
            states[user] = State.DUE;
            ready.add(indexes[user]);
        }
    }

    /** Owner: when the next thinking user falls due, or {@code Long.MAX_VALUE} with none (or some ready now). */
    long nextDueNanos(long nowNanos) {
        if (!ready.isEmpty()) {
            return nowNanos;
        }
        Integer first = thinking.peek();
        return first == null ? Long.MAX_VALUE : dueNanos[first];
    }

    /** Owner: whether an outcome is queued and not taken. */
    boolean hasSettled() {
        return !outcomes.isEmpty();
    }

    /**
     * Owner: parks until {@code untilNanos} or, with no pause, until an outcome comes ({@link #settled}), returning at
     * once if one is queued. No busy waiting: the owner sleeps, and one wake-up takes every outcome queued.
     *
     * @throws InterruptedException JMeter's Stop; the flag is cleared, as a sleep's would be
     */
    void await(long untilNanos) throws InterruptedException {
        parked.set(true);
        try {
            // an outcome queued before the flag was up woke no one: look before sleeping (with a pause, outcomes
            // wait for the owner's pace, and a steady stream of them must not keep it from sleeping)
            if (pauseNanos > 0 || outcomes.isEmpty()) {
                long waitNanos = untilNanos - System.nanoTime();
                if (waitNanos > 0) {
                    LockSupport.parkNanos(this, waitNanos);
                }
            }
        } finally {
            parked.set(false);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    private void due(int user, long atNanos) {
        states[user] = State.DUE;
        dueNanos[user] = atNanos;
        if (pauseNanos == 0) {
            ready.add(indexes[user]);
        } else {
            thinking.add(indexes[user]);
        }
    }

    @Override
    public String toString() {
        return "UserLoops[" + states.length + " users, pause " + pauseNanos / 1_000_000 + " ms, " + ready.size()
                + " ready, " + thinking.size() + " thinking]";
    }
}
