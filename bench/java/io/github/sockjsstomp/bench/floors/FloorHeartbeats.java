package io.github.sockjsstomp.bench.floors;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The Java Request floors' heart-beats: one daemon thread ({@code floor-heartbeat-1}) writes every session's of the
 * JVM, as the plugin's heart-beat wheels are shared by all its sessions.
 */
final class FloorHeartbeats {

    private static final ScheduledExecutorService SCHEDULER =
            Executors.newSingleThreadScheduledExecutor(ConnectFloor.daemons("floor-heartbeat-"));

    private FloorHeartbeats() {}

    /** Runs {@code heartbeat} every {@code periodMillis} from now on; nothing when the period is 0 (heart-beats off). */
    static void every(long periodMillis, Runnable heartbeat) {
        if (periodMillis > 0) {
            SCHEDULER.scheduleWithFixedDelay(heartbeat, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        }
    }
}
