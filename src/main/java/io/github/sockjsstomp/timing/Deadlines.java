package io.github.sockjsstomp.timing;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The run's messages in the order their deadlines pass, so that finding the expired ones costs O(1) per message:
 * messages with the same reply timeout expire in send order, so each timeout has a FIFO queue and only queue heads
 * are looked at. A message stays here until its deadline (or the test's end), answered or not: a copy that comes
 * before then is extra, not late.
 */
final class Deadlines {

    private final Map<Long, Queue<MessageTiming>> byTimeout = new ConcurrentHashMap<>();

    void add(MessageTiming entry, long timeoutNanos) {
        byTimeout
                .computeIfAbsent(timeoutNanos, t -> new ConcurrentLinkedQueue<>())
                .add(entry);
    }

    /** Takes out every message whose deadline passed by {@code nowNanos} and hands it to {@code expired}. */
    void takeExpired(long nowNanos, Consumer<MessageTiming> expired) {
        for (Queue<MessageTiming> queue : byTimeout.values()) {
            MessageTiming head;
            while ((head = queue.peek()) != null && head.deadlineNanos - nowNanos <= 0) {
                queue.poll();
                expired.accept(head);
            }
        }
    }

    /** Takes out every message, whatever its deadline (the test ended), and hands it to {@code taken}. */
    void takeAll(Consumer<MessageTiming> taken) {
        for (Queue<MessageTiming> queue : byTimeout.values()) {
            MessageTiming entry;
            while ((entry = queue.poll()) != null) {
                taken.accept(entry);
            }
        }
    }
}
