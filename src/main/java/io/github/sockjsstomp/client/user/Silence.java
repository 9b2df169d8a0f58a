package io.github.sockjsstomp.client.user;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/**
 * One session of a user that goes silent (a dead client): armed when it connects, silent a set time later (it
 * writes nothing more and leaves its connection open, see {@link SilencedSession}), then expired when the
 * server closes it. The time from silent to expired is how long the server took to notice. Each step happens
 * once, by compare-and-set, whichever thread (heart-beat scheduler, I/O thread, JMeter thread) gets there
 * first; a session the server closed before it went silent was simply lost, and one we close ourselves (the
 * test ended) never expired.
 */
public final class Silence {

    /** Told of a session that went silent and of one the server then closed; on scheduler and I/O threads. */
    public interface Listener {

        void silent(Silence silence);

        void expired(Silence silence);
    }

    private static final int ARMED = 0;
    private static final int SILENT = 1;
    private static final int EXPIRED = 2;
    /** Closed before it went silent: an ordinary lost session. */
    private static final int LOST = 3;
    /** We gave up on it, silent, before the server closed it (the test ended). */
    private static final int GIVEN_UP = 4;

    private final Listener listener;
    private final String user;
    private final AtomicInteger state = new AtomicInteger(ARMED);
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile SilencedSession session;
    private volatile ScheduledFuture<?> timer;
    private volatile long silentNanos;
    private volatile long silentEpochMillis;
    private volatile long expiredNanos;
    private volatile CloseStatus closedWith;

    Silence(Listener listener, String user) {
        this.listener = listener;
        this.user = user;
    }

    /** The session STOMP writes to: the transport's, behind a switch that can drop every write. */
    WebSocketSession outgoing(WebSocketSession transport) {
        SilencedSession wrapped = new SilencedSession(transport);
        session = wrapped;
        return wrapped;
    }

    /** The session connected: it goes silent {@code afterMillis} from now. */
    void arm(TaskScheduler scheduler, long afterMillis) {
        timer = scheduler.schedule(this::silence, Instant.now().plus(Duration.ofMillis(afterMillis)));
    }

    /** Goes silent now, if the session is still open and was not given up. */
    void silence() {
        SilencedSession current = session;
        if (current == null || !current.isOpen() || !state.compareAndSet(ARMED, SILENT)) {
            return;
        }
        current.silence();
        silentEpochMillis = System.currentTimeMillis();
        silentNanos = System.nanoTime();
        listener.silent(this);
    }

    /** The transport closed: expired if it was silent, lost if not yet. */
    void closed(CloseStatus status) {
        long now = System.nanoTime();
        cancelTimer();
        if (state.compareAndSet(ARMED, LOST)) {
            return;
        }
        closedWith = status;
        expiredNanos = now;
        if (state.compareAndSet(SILENT, EXPIRED)) {
            listener.expired(this);
        }
    }

    /** We close the session (teardown, Stop): from here on a close is ours, not the server's. */
    void release() {
        cancelTimer();
        state.compareAndSet(ARMED, LOST);
        state.compareAndSet(SILENT, GIVEN_UP);
    }

    /** Whether this session went silent and we still hold it (so its transport is ours to close). */
    boolean heldSilent() {
        int now = state.get();
        return now == SILENT || now == GIVEN_UP;
    }

    /**
     * The test ended: a silent session the server has not closed is given up on, and never counts as expired
     * after this. True if it was given up here, false if it expired (or never went silent).
     */
    public boolean giveUp() {
        return state.compareAndSet(SILENT, GIVEN_UP);
    }

    /** Whether it went silent (whatever happened after). */
    public boolean wentSilent() {
        int now = state.get();
        return now == SILENT || now == EXPIRED || now == GIVEN_UP;
    }

    public boolean expired() {
        return state.get() == EXPIRED;
    }

    /** True once: whoever reports this session's end as a sample takes it here. */
    public boolean takeReport() {
        return wentSilent() && reported.compareAndSet(false, true);
    }

    public long silentEpochMillis() {
        return silentEpochMillis;
    }

    public long silentNanos() {
        return silentNanos;
    }

    /** From silent to the server's close, in nanoseconds; -1 unless it expired. */
    public long detectionNanos() {
        return expired() ? expiredNanos - silentNanos : -1;
    }

    /** How the server closed it, as Tomcat or SockJS reported it; empty unless it expired. */
    public String closeStatus() {
        CloseStatus status = closedWith;
        if (!expired() || status == null) {
            return "";
        }
        String reason = status.getReason();
        return status.getCode() + (reason == null || reason.isBlank() ? "" : " " + reason);
    }

    public String user() {
        return user;
    }

    private void cancelTimer() {
        ScheduledFuture<?> armed = timer;
        if (armed != null) {
            armed.cancel(false);
        }
    }

    @Override
    public String toString() {
        return "Silence[" + user + ", "
                + switch (state.get()) {
                    case ARMED -> "armed";
                    case SILENT -> "silent";
                    case EXPIRED -> "expired after " + TimeUnit.NANOSECONDS.toMillis(detectionNanos()) + " ms";
                    case LOST -> "lost before going silent";
                    default -> "given up";
                }
                + "]";
    }
}
