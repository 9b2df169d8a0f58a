package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.samples.Sample;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.jmeter.samplers.SampleResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connects a thread has under way at once, {@code connectsInFlight} at most, so that its connect rate is the
 * server's and not one handshake at a time. A connect that blocks (a user's login steps are blocking HTTP requests,
 * SockJS asks its /info, transport auto its probe) runs on a connect lane of the thread's own, which then waits for
 * CONNECTED; a plain WebSocket connect with no login steps runs on no lane and no thread waits for it (the
 * handshake is on Spring's connect threads, CONNECTED read on an I/O thread, which ends the sample): a lane's
 * hand-overs and wake-ups were a tenth of a connect's CPU. Either way it touches only its user; the JMeter thread
 * paces the starts ({@link UserConnects#awaitTurn}), takes the finished ones in the order they finish and applies
 * their outcomes ({@link UserConnects#apply}) itself, since {@link Reconnects} and the turns are its alone, and the
 * users' states change only where the turns look ({@link Reconnects#isConnecting} while under way). With a
 * limit of 1 the connect runs on the JMeter thread itself: no lane, as before there were lanes.
 *
 * <p>The hand-over is a queue: a lane puts its connect's sample there once done, the JMeter thread takes it, so
 * what the lane wrote happens-before what the JMeter thread reads. With a limit of 1 (a thread of one user) there is
 * neither lane nor queue: a thread's fixed heap counts once per session when each thread holds one. Not thread-safe
 * except {@link #cancel} (JMeter's Stop, from another thread) and {@link #close}.
 *
 * <p>A lane is never interrupted: it writes (its session's CONNECT and SUBSCRIBEs, the close of a connect it gives
 * up), and Tomcat fails a write whose thread is interrupted, then closes the socket without a close frame, so the
 * server would see the session dropped. Stop gives the connects up instead: their users' disconnect wakes their
 * waits ({@link ThreadUsers#disconnect}), a lane not yet started does not start, and a connect that completes
 * after Stop is disconnected by its own lane.
 */
public final class ConnectsInFlight {

    private static final Logger log = LoggerFactory.getLogger(ConnectsInFlight.class);
    private static final AtomicInteger LANES = new AtomicInteger();
    private static final long LANE_IDLE_SECONDS = 5;

    /** What a connect is made of, as {@link UserConnects} does it; a small fake in tests. */
    interface Connects {
        /** Waits, outside any sample's time, until the next connect may start. */
        void awaitTurn() throws InterruptedException;

        /** A connect of user {@code index} starts: on the JMeter thread. */
        void started(int index);

        /** The connect itself, timed; on a connect lane (or the JMeter thread), touching only its user. */
        UserConnects.Attempt attempt(int index, String label);

        /** Its outcome, applied on the JMeter thread. */
        void apply(UserConnects.Attempt attempt);

        /** User {@code index}'s session, opened after Stop, is closed: on its connect lane. */
        void disconnect(int index);

        /**
         * Whether user {@code index}'s connect needs no thread to wait on it (no login steps, a plain WebSocket):
         * then it is made by {@link #attemptAsync}, with no lane.
         */
        default boolean connectsWithoutWaiting(int index) {
            return false;
        }

        /**
         * The connect, timed, completing on whatever thread ends its wait, touching only its user; only where
         * {@link #connectsWithoutWaiting}.
         */
        default CompletableFuture<UserConnects.Attempt> attemptAsync(int index, String label) {
            throw new UnsupportedOperationException("connects that wait use attempt");
        }
    }

    private final Connects connects;
    private final int limit;
    /** The longest a started connect can take: its steps are each bounded by the connect timeout. */
    private final long longestConnectNanos;

    /** With lanes (a limit above 1): the connects done, in the order they finished; null with a limit of 1. */
    private final BlockingQueue<UserConnects.Attempt> finished;
    /** With a limit of 1: the connect done on the JMeter thread, until {@link #awaitFirst} takes it. */
    private UserConnects.Attempt doneHere;

    /** The connects under way that no lane runs ({@link Connects#attemptAsync}), until they land. */
    private final Set<CompletableFuture<Void>> waitedOnByNoOne = ConcurrentHashMap.newKeySet();

    private int inFlight;
    /** Made on the first connect that needs one (with a limit of 1 none does); its lanes end when idle. */
    private ExecutorService lanes;
    /**
     * How many times the connects under way were given up (JMeter's Stop or a Sample Timeout, then teardown): a
     * connect started before the last of them does not start, and is closed again by its lane if it connected.
     */
    private final AtomicLong cancels = new AtomicLong();

    /**
     * @param limit connects under way at once, 1 or more
     * @param longestConnectMillis the most a connect (login steps, handshake, CONNECT, subscribes) can take
     */
    ConnectsInFlight(Connects connects, int limit, long longestConnectMillis) {
        if (limit < 1) {
            throw new IllegalArgumentException("connectsInFlight must be 1 or more, was " + limit);
        }
        this.connects = connects;
        this.limit = limit;
        this.longestConnectNanos = TimeUnit.MILLISECONDS.toNanos(longestConnectMillis);
        // a thread of one user has a limit of 1: no lanes, no hand-over, nothing kept for it
        this.finished = limit == 1 ? null : new LinkedBlockingQueue<>();
    }

    int limit() {
        return limit;
    }

    /** Connects started and not yet taken by {@link #awaitFirst}. */
    public int count() {
        return inFlight;
    }

    public boolean hasRoom() {
        return inFlight < limit;
    }

    /** Whether a connect is done and waits for {@link #awaitFirst}: no need to start more before taking it. */
    public boolean hasFinished() {
        return doneHere != null || finished != null && !finished.isEmpty();
    }

    /**
     * Starts user {@code index}'s connect once the pace lets it (the wait is outside any sample's time). The caller
     * checked {@link #hasRoom}, and that the user is down and due.
     */
    public void start(int index, String label) throws InterruptedException {
        long cancelled = cancels.get();
        connects.awaitTurn();
        connects.started(index);
        inFlight++;
        if (limit == 1) {
            doneHere = connects.attempt(index, label);
            return;
        }
        if (connects.connectsWithoutWaiting(index)) {
            // nothing of it blocks: no lane, no thread waiting for CONNECTED; it lands in the queue when done
            // close waits for the landing, not the connect: a connect that completes after Stop is closed there,
            // and a wait on the connect alone may wake before the thread that completed it has run its landing
            CompletableFuture<Void> landing = connects.attemptAsync(index, label)
                    .handle((done, failure) -> {
                        landed(index, label, cancelled, done, failure);
                        return null;
                    });
            waitedOnByNoOne.add(landing);
            landing.whenComplete((ignored, failure) -> waitedOnByNoOne.remove(landing));
            return;
        }
        try {
            lanes().execute(() -> runOnLane(index, label, cancelled));
        } catch (RejectedExecutionException e) {
            // closed under us (teardown): the connect is not made, and says so
            finished.add(notStarted(index, label));
        }
    }

    private static UserConnects.Attempt notStarted(int index, String label) {
        long now = System.nanoTime();
        return new UserConnects.Attempt(
                index,
                Sample.failedAtOnce(label, Sample.INTERRUPTED, "Not started: the thread's users are closed"),
                now,
                now);
    }

    private void runOnLane(int index, String label, long cancelledBefore) {
        if (cancels.get() != cancelledBefore) {
            finished.add(notStarted(index, label));
            return;
        }
        try {
            landed(index, label, cancelledBefore, connects.attempt(index, label), null);
        } finally {
            // a given-up connect ends as if interrupted (its sample says Interrupted); the lane's next one must not
            Thread.interrupted();
        }
    }

    private void landed(int index, String label, long cancelledBefore, UserConnects.Attempt done, Throwable failure) {
        if (done == null) {
            // not expected: the attempt makes a failed sample of every failure
            long now = System.nanoTime();
            log.warn("{}: connect of user {} failed", this, index, failure);
            finished.add(new UserConnects.Attempt(
                    index, Sample.failedAtOnce(label, Sample.SAMPLER_ERROR, String.valueOf(failure)), now, now));
            return;
        }
        if (cancels.get() != cancelledBefore && done.result().isSuccessful()) {
            // connected after Stop passed over its user: no one else closes it before the test ends
            connects.disconnect(index);
        }
        finished.add(done);
    }

    /**
     * Waits for the first of the connects under way to finish, applies its outcome and returns its sample, timed
     * from that user's start to its CONNECTED and subscribes, or its failure. The wait is bounded by the longest a
     * connect can take; JMeter's Stop ends it.
     */
    public SampleResult awaitFirst(String label) throws InterruptedException {
        // one already done is taken without waiting: with a limit of 1 it is, and an interrupt that ended it is set
        UserConnects.Attempt done = doneHere;
        doneHere = null;
        if (done == null && finished != null) {
            done = finished.poll();
            if (done == null) {
                done = finished.poll(longestConnectNanos, TimeUnit.NANOSECONDS);
            }
        }
        if (done == null) {
            // not expected: every step of a connect has its timeout; said, not waited on for ever
            return Sample.failedAtOnce(
                    label,
                    Sample.SAMPLER_ERROR,
                    "None of " + inFlight + " connects under way finished within "
                            + TimeUnit.NANOSECONDS.toMillis(longestConnectNanos) + " ms");
        }
        inFlight--;
        connects.apply(done);
        return done.result();
    }

    /**
     * JMeter's Stop (or a Sample Timeout) and the test's end, before the users are disconnected, which ends the
     * connects under way: none of those started so far starts now, and one that connects anyway is closed by its
     * lane. Connects started after this go ahead (after a Sample Timeout the thread goes on).
     */
    void cancel() {
        cancels.incrementAndGet();
    }

    /**
     * Teardown, once the users are disconnected: waits (bounded) for the lanes to end, so that every session a
     * connect under way opened is closed before the test ends.
     */
    void close() {
        cancel();
        awaitTheUnwaited();
        ExecutorService made;
        synchronized (this) {
            made = lanes;
        }
        if (made == null) {
            return;
        }
        made.shutdown();
        try {
            if (!made.awaitTermination(longestConnectNanos, TimeUnit.NANOSECONDS)) {
                log.warn(
                        "{}: connects still under way after {} ms",
                        this,
                        TimeUnit.NANOSECONDS.toMillis(longestConnectNanos));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The connects no lane runs, bounded by the longest a connect can take: given up, they end at once. */
    private void awaitTheUnwaited() {
        CompletableFuture<?>[] underWay = waitedOnByNoOne.toArray(CompletableFuture<?>[]::new);
        if (underWay.length == 0) {
            return;
        }
        try {
            CompletableFuture.allOf(underWay).get(longestConnectNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn(
                    "{}: connects still under way after {} ms",
                    this,
                    TimeUnit.NANOSECONDS.toMillis(longestConnectNanos));
        }
    }

    private synchronized ExecutorService lanes() {
        if (lanes == null) {
            int number = LANES.incrementAndGet();
            AtomicInteger lane = new AtomicInteger();
            ThreadFactory factory = task -> {
                Thread thread = new Thread(task, "stomp-connect-lane-" + number + "-" + lane.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            };
            // idle lanes end: once its users are up, a thread holds their sessions with no lane left
            ThreadPoolExecutor pool = new ThreadPoolExecutor(
                    limit, limit, LANE_IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
            pool.allowCoreThreadTimeOut(true);
            lanes = pool;
        }
        return lanes;
    }

    @Override
    public String toString() {
        return "ConnectsInFlight[" + inFlight + " of " + limit + "]";
    }
}
