package io.github.sockjsstomp.serverside;

/**
 * One source's CPU time over a run's messages, and what it used per message sent: {@code (CPU time at the end -
 * CPU time at the start) / (messages sent at the end - messages sent at the start)}. The start is its last reading
 * before the first message was sent (its first reading where messages were being sent already); the end, its first
 * reading at the most messages sent at any of its readings, so the window holds every message its readings saw sent
 * and as little idle time after them as the polls allow. The server's CPU in the window is all of it: the sessions'
 * heart-beats, its GC, the polls' own requests to an actuator.
 */
final class MessageCpu {

    private Reading start;
    private Reading end;

    void add(Reading reading) {
        if (start == null || reading.count() == 0) {
            start = reading;
        }
        if (end == null || reading.count() > end.count()) {
            end = reading;
        }
    }

    Reading start() {
        return start;
    }

    Reading end() {
        return end;
    }

    boolean hasFigure() {
        return end.count() > start.count();
    }

    /** CPU seconds per message; only where {@link #hasFigure()}. */
    double perMessage() {
        return (end.value() - start.value()) / (end.count() - start.count());
    }
}
