package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.message.IncomingMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Messages a listening user received and no sample has reported yet. Bounded, so a listener that samples
 * less often than messages arrive cannot exhaust the heap; what did not fit is counted, not dropped silently.
 */
public final class MessageInbox implements UserListener {

    /** Ends a wait early without being a message: see {@link #wake}. */
    private static final IncomingMessage WAKE = new IncomingMessage(null, "", null, new byte[0], 0);

    private final LinkedBlockingQueue<IncomingMessage> queue;
    private final AtomicLong overflow = new AtomicLong();
    private volatile Wake wake;

    /** Why a wait ended early: a response code for the sample, and the words for its message. */
    public record Wake(String code, String reason) {}

    public MessageInbox(int capacity) {
        this.queue = new LinkedBlockingQueue<>(capacity);
    }

    @Override
    public void onMessage(IncomingMessage message) {
        add(message);
    }

    @Override
    public void onStompError(String error) {
        wake(Failure.STOMP_ERROR, error);
    }

    @Override
    public void onConnectionLost(String reason) {
        wake(Failure.CONNECTION_LOST, "Connection lost: " + reason);
    }

    /** Called on I/O threads: never blocks. */
    public void add(IncomingMessage message) {
        if (!queue.offer(message)) {
            overflow.incrementAndGet();
        }
    }

    /**
     * Ends the current or next wait now (an ERROR frame: nothing more will come); {@link #takeWake} says
     * why. Never blocks: the wake-up bypasses the capacity.
     */
    public void wake(String code, String reason) {
        wake = new Wake(code, reason);
        if (!queue.offer(WAKE)) {
            queue.clear();
            queue.offer(WAKE);
        }
    }

    /** Why the last wait ended early, once; null if it did not. */
    public Wake takeWake() {
        Wake reason = wake;
        wake = null;
        return reason;
    }

    /** Takes up to {@code count} messages, waiting until they are there or the time is up or a wake-up. */
    public List<IncomingMessage> awaitCount(int count, long timeoutMillis) throws InterruptedException {
        List<IncomingMessage> taken = new ArrayList<>(Math.min(count, 1024));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (taken.size() < count) {
            queue.drainTo(taken, count - taken.size());
            if (taken.remove(WAKE)) {
                break;
            }
            if (taken.size() >= count) {
                break;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            IncomingMessage next = queue.poll(left, TimeUnit.NANOSECONDS);
            if (next == WAKE) {
                break;
            }
            if (next != null) {
                taken.add(next);
            }
        }
        return taken;
    }

    /** Takes everything that is there now and whatever arrives within the window. */
    public List<IncomingMessage> collect(long windowMillis) throws InterruptedException {
        List<IncomingMessage> taken = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(windowMillis);
        while (true) {
            queue.drainTo(taken);
            if (taken.remove(WAKE)) {
                return taken;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return taken;
            }
            IncomingMessage next = queue.poll(left, TimeUnit.NANOSECONDS);
            if (next == WAKE) {
                return taken;
            }
            if (next != null) {
                taken.add(next);
            }
        }
    }

    /** Messages that arrived while the inbox was full, since the last call. */
    public long takeOverflow() {
        return overflow.getAndSet(0);
    }
}
