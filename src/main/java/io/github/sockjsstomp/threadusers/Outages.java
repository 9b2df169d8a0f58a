package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.samples.RunReports;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the servers the thread's users connect to can be reached, said once per outage, not per thread or
 * per attempt: "unreachable" when a user fails again to connect for a reason that means the server is away
 * (refused, timed out, unknown host, a gateway's 502/503/504), and "reachable again" at the next connect that
 * succeeds. Said in jmeter.log and, in a headless run, on the console next to JMeter's summary.
 *
 * <p>JVM-wide, bounded: one {@link Server} per server URL that open thread's users connect to; it goes when
 * the last of them closes (teardown), so the next run starts afresh.
 */
final class Outages {

    private static final Logger log = LoggerFactory.getLogger(Outages.class);
    private static final Set<String> UNREACHABLE = Set.of(
            Failure.CONNECTION_REFUSED,
            Failure.CONNECT_TIMEOUT,
            Failure.CONNECT_FAILED,
            Failure.UNKNOWN_HOST,
            Failure.READ_TIMEOUT,
            Failure.IO_ERROR,
            "502",
            "503",
            "504");
    private static final ConcurrentHashMap<String, Server> SERVERS = new ConcurrentHashMap<>();

    private Outages() {}

    /** The server at {@code url}, for one more thread's users; {@link Server#release} when they close. */
    static Server join(String url, long minMillis, long maxMillis) {
        return SERVERS.compute(url, (key, known) -> {
            Server server = known != null ? known : new Server(key, minMillis, maxMillis, Outages::say);
            server.users.incrementAndGet();
            return server;
        });
    }

    /** Whether a failed connect with this code says the server is away (not that it refused this user). */
    static boolean meansUnreachable(String code) {
        return UNREACHABLE.contains(code);
    }

    private static void say(String line) {
        log.warn(line);
        if (RunReports.consoleSeen()) {
            System.out.println(line);
        }
    }

    /** One server's reachability and its sessions waiting to reconnect; thread-safe. */
    static final class Server {

        private final String url;
        private final long minMillis;
        private final long maxMillis;
        private final Consumer<String> out;
        private final AtomicInteger users = new AtomicInteger();
        private final AtomicInteger waiting = new AtomicInteger();
        private boolean unreachable;
        private long sinceNanos;
        private long failedConnects;

        Server(String url, long minMillis, long maxMillis, Consumer<String> out) {
            this.url = url;
            this.minMillis = minMillis;
            this.maxMillis = maxMillis;
            this.out = out;
        }

        /** Users of this server that failed or lost their session and have not connected since, up or down by one. */
        void waiting(int change) {
            waiting.addAndGet(change);
        }

        int waiting() {
            return waiting.get();
        }

        /**
         * A connect failed with {@code code}; {@code failuresInRow} of that user's. The outage is said at the
         * second failure in a row of a user: the server stayed away for a whole delay, not a blip.
         */
        void failed(String code, int failuresInRow, long nowNanos) {
            String line = null;
            synchronized (this) {
                if (unreachable) {
                    failedConnects++;
                } else if (failuresInRow >= 2 && meansUnreachable(code)) {
                    unreachable = true;
                    sinceNanos = nowNanos;
                    failedConnects = 1;
                    line = "stomp: " + url + " unreachable (" + code + "): " + waiting.get()
                            + " sessions waiting to reconnect, retrying every " + seconds(minMillis) + "-"
                            + seconds(maxMillis) + " s";
                }
            }
            if (line != null) {
                out.accept(line);
            }
        }

        /** A connect succeeded: if the server was said to be unreachable, it is said to be back. */
        void connected(long nowNanos) {
            String line = null;
            synchronized (this) {
                if (unreachable) {
                    unreachable = false;
                    line = "stomp: " + url + " reachable again after "
                            + seconds(TimeUnit.NANOSECONDS.toMillis(nowNanos - sinceNanos)) + " s ("
                            + failedConnects + " connects failed meanwhile): " + waiting.get()
                            + " sessions waiting to reconnect";
                }
            }
            if (line != null) {
                out.accept(line);
            }
        }

        synchronized boolean isUnreachable() {
            return unreachable;
        }

        /** One thread's users closed, {@code stillWaiting} of them waiting; the last to close forgets the server. */
        void release(int stillWaiting) {
            waiting.addAndGet(-stillWaiting);
            SERVERS.computeIfPresent(
                    url, (key, server) -> server != this || users.decrementAndGet() > 0 ? server : null);
        }

        @Override
        public String toString() {
            return "Outages.Server[" + url + (isUnreachable() ? ", unreachable" : "") + ", " + waiting.get()
                    + " waiting]";
        }
    }

    static String seconds(long millis) {
        if (millis % 1000 == 0) {
            return Long.toString(millis / 1000);
        }
        return String.format(Locale.ROOT, "%.1f", millis / 1000.0).replaceAll("\\.0$", "");
    }
}
