package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that goes away mid-run, through a real JMeter: a loopback proxy in front of the demo server resets
 * every connection and refuses new ones for a few seconds, as a stopped broker does. Before reconnects backed
 * off, connect.jmx retried at network speed (a user's trial: 901,860 ConnectionRefused rows in 70 s); now each
 * virtual user waits an exponential, jittered delay between attempts, the console says once that the server is
 * unreachable and once that it is back, and every session comes back.
 */
class OutageIT {

    private static final long MIN_MILLIS = 500;
    private static final long MAX_MILLIS = 2000;
    private static final long OUTAGE_MILLIS = 4000;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    @Test
    void aConnectPlanBacksOffWhileTheServerIsAwayAndEverySessionComesBack() throws Exception {
        int threads = 2;
        int perThread = 50;
        int users = threads * perThread;
        PlanRun run;
        int proxyPort;
        try (OutageProxy proxy = new OutageProxy(demo.port())) {
            proxyPort = proxy.port();
            PlanRun.Launch launch = PlanRun.launch(
                    dir.resolve("connect"),
                    "connect",
                    false,
                    List.of(
                            "port=" + proxy.port(),
                            "transport=raw",
                            "endpoint=/stomp-ws",
                            "indexPath=none",
                            "pullPath=none",
                            "users=" + users,
                            "threads=" + threads,
                            "rampUp=0",
                            "duration=25",
                            "aliveMillis=500",
                            "connectTimeoutMillis=3000",
                            "sockjsstomp.reconnectMinMillis=" + MIN_MILLIS,
                            "sockjsstomp.reconnectMaxMillis=" + MAX_MILLIS));
            awaitUntil(() -> demo.server().connectedSessions(), users, launch);
            proxy.down();
            Thread.sleep(OUTAGE_MILLIS);
            proxy.up();
            awaitUntil(() -> demo.server().connectedSessions(), users, launch);
            run = launch.await();
        }
        List<Map<String, String>> failedSessions = run.rows().stream()
                .filter(r ->
                        r.get("label").equals("session") && r.get("success").equals("false"))
                .toList();
        // every user is lost once, and tries again at most as often as its backoff lets it in the outage
        long bound = (long) users * (attemptsWithin(OUTAGE_MILLIS + 1000) + 2);
        System.out.printf(
                "OutageIT: %d failed session rows in a %d ms outage of %d users (at most %d)%n",
                failedSessions.size(), OUTAGE_MILLIS, users, bound);
        assertThat((long) failedSessions.size())
                .as("failed session rows")
                .isPositive()
                .isLessThanOrEqualTo(bound);
        assertThat(failedSessions.stream()
                        .filter(r -> r.get("responseCode").equals("ConnectionLost"))
                        .count())
                .as("each lost session said once")
                .isLessThanOrEqualTo(users);
        for (int thread = 1; thread <= threads; thread++) {
            String name = "users 1-" + thread;
            List<Map<String, String>> ofThread = run.rows().stream()
                    .filter(r -> name.equals(r.get("threadName")))
                    .toList();
            int lastFailure = lastIndex(ofThread, r -> r.get("success").equals("false"));
            assertThat(lastFailure).as("%s failed in the outage", name).isNotNegative();
            assertThat(ofThread.subList(lastFailure + 1, ofThread.size()))
                    .as("after %s's last failure", name)
                    .anySatisfy(r -> {
                        assertThat(r.get("label")).isEqualTo("session alive");
                        assertThat(r.get("responseMessage")).startsWith(perThread + " sessions alive");
                    });
        }
        String console = Files.readString(run.dir().resolve("console.txt"));
        assertThat(occurrences(console, " unreachable ("))
                .as("console: %s", console)
                .isEqualTo(1);
        assertThat(occurrences(console, " reachable again"))
                .as("console: %s", console)
                .isEqualTo(1);
        assertThat(console)
                .contains("stomp: ws://127.0.0.1:" + proxyPort + "/stomp-ws unreachable (")
                .contains("sessions waiting to reconnect")
                .contains("retrying every 0.5-2 s");
        String jmeterLog = Files.readString(run.dir().resolve("jmeter.log"));
        assertThat(occurrences(jmeterLog, " unreachable (")).isEqualTo(1);
        assertThat(occurrences(jmeterLog, " reachable again")).isEqualTo(1);
    }

    /**
     * An unthrottled send plan against a server that is down from the start: every send would be one more
     * refused connect at network speed; with the backoff a send waits for its user's next attempt, so the rows
     * are bounded by the attempts, and every message attempted is FAILED in the books.
     */
    @Test
    void anUnthrottledSendPlanWithItsServerDownDoesNotFlood() throws Exception {
        int threads = 2;
        int perThread = 5;
        int users = threads * perThread;
        long durationMillis = 7000;
        PlanRun run;
        try (OutageProxy proxy = new OutageProxy(demo.port())) {
            proxy.down();
            run = PlanRun.launch(
                            dir.resolve("send-down"),
                            "send",
                            false,
                            List.of(
                                    "port=" + proxy.port(),
                                    "replySamples=false",
                                    "users=" + users,
                                    "threads=" + threads,
                                    "rampUp=0",
                                    "duration=" + durationMillis / 1000,
                                    "messagesPerSecond=0",
                                    "sockjsstomp.reconnectMinMillis=" + MIN_MILLIS,
                                    "sockjsstomp.reconnectMaxMillis=" + MAX_MILLIS))
                    .await();
        }
        List<Map<String, String>> sends = run.rows().stream()
                .filter(r -> r.get("label").startsWith("send"))
                .toList();
        long bound = (long) users * (attemptsWithin(durationMillis + 1000) + 2);
        System.out.printf(
                "OutageIT: %d send rows in %d ms with the server down, %d users (at most %d)%n",
                sends.size(), durationMillis, users, bound);
        assertThat((long) sends.size()).as("send rows").isPositive().isLessThanOrEqualTo(bound);
        assertThat(sends).allSatisfy(r -> assertThat(r.get("success")).isEqualTo("false"));
        // a message attempted is FAILED (a send interrupted at the run's end while it waited was never attempted)
        long attempted = sends.stream()
                .filter(r -> !r.get("responseCode").equals("Interrupted"))
                .count();
        // the books line is the plugin's: in its own log (-Dsockjsstomp.logfile), and in jmeter.log
        PlanRun.BooksLine books = PlanRun.BooksLine.in(
                Files.readString(run.dir().resolve("sockjs-stomp.log"))
                        + Files.readString(run.dir().resolve("jmeter.log")),
                "the plugin's log and jmeter.log");
        long sent = books.sent();
        assertThat(sent).as("sent").isBetween(attempted, (long) sends.size());
        assertThat(books.failed()).as("failed: every message sent").isEqualTo(sent);
        assertThat(run.timing())
                .hasSize((int) sent)
                .allSatisfy(r -> assertThat(r[1]).isEqualTo("FAILED"));
        String console = Files.readString(run.dir().resolve("console.txt"));
        assertThat(occurrences(console, " unreachable ("))
                .as("console: %s", console)
                .isEqualTo(1);
        assertThat(occurrences(console, " reachable again")).isZero();
    }

    /**
     * Attempts one user may make in {@code windowMillis} after its first failure: the delay before attempt k+1
     * (equal jitter) is at least half of min * 2^(k-1), capped at max.
     */
    static int attemptsWithin(long windowMillis) {
        int attempts = 1;
        long elapsed = 0;
        long base = MIN_MILLIS;
        while (true) {
            elapsed += base / 2;
            if (elapsed > windowMillis) {
                return attempts;
            }
            attempts++;
            base = Math.min(MAX_MILLIS, base * 2);
        }
    }

    private static void awaitUntil(IntSupplier sessions, int wanted, PlanRun.Launch launch) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (sessions.getAsInt() < wanted
                && System.nanoTime() < deadline
                && launch.process().isAlive()) {
            Thread.sleep(100);
        }
        assertThat(sessions.getAsInt())
                .as("sessions on the server; console: %s", Files.readString(launch.console()))
                .isGreaterThanOrEqualTo(wanted);
    }

    private static int lastIndex(List<Map<String, String>> rows, Predicate<Map<String, String>> p) {
        for (int i = rows.size() - 1; i >= 0; i--) {
            if (p.test(rows.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            count++;
        }
        return count;
    }
}
