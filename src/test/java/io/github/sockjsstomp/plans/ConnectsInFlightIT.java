package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connection-capacity test (connect.jmx) with several connects under way per thread ({@code connectsInFlight}):
 * one session row per user with that user's own time, every user connected once, the capacity figures right; a
 * server that refuses every connect gives one failed row per attempt with its code, and the backoff holds; JMeter's
 * Stop mid-connect leaves no session open on the server.
 */
class ConnectsInFlightIT {

    private static final Pattern USER = Pattern.compile("^Connected VirtualUser\\[users #(\\d+)");

    @TempDir
    static Path dir;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    /**
     * 2 threads x 50 users: with 8 under way rows of a thread overlap, with 1 they follow one another. 9 s: 50
     * connects one after another on a loaded machine (the suite's forks) took most of 6 s before each thread's
     * 'session alive' row.
     */
    @ParameterizedTest
    @ValueSource(ints = {8, 1})
    void everyUserConnectsOnceInARowOfItsOwn(int connectsInFlight) throws Exception {
        int threads = 2;
        int users = 100;
        long droppedBefore = demo.server().sessionsDroppedWithoutClose();
        PlanRun run = PlanRun.runClean(
                dir.resolve("in-flight-" + connectsInFlight),
                "connect",
                false,
                raw("users=" + users, "threads=" + threads, "duration=9", "connectsInFlight=" + connectsInFlight));

        List<Map<String, String>> sessions = rows(run, "session");
        assertThat(sessions).hasSize(users);
        assertThat(run.count("connect")).isEqualTo(users);
        assertThat(sessions.stream().map(r -> userNumber(r.get("responseMessage"))))
                .as("each user connected once")
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.rangeClosed(1, users).boxed().toList());
        assertThat(run.threads("session"))
                .hasSize(threads)
                .allSatisfy((thread, rows) -> assertThat(rows).isEqualTo(users / threads));
        assertThat(run.threads("session alive")).hasSize(threads);

        Map<String, Integer> mostAtOnce = mostAtOnceByThread(sessions);
        if (connectsInFlight == 1) {
            assertThat(mostAtOnce)
                    .as("rows of a thread at once")
                    .allSatisfy((thread, most) -> assertThat(most).isEqualTo(1));
        } else {
            assertThat(mostAtOnce.values())
                    .as("rows of a thread at once")
                    .anySatisfy(most -> assertThat(most).isBetween(2, connectsInFlight))
                    .allSatisfy(most -> assertThat(most).isLessThanOrEqualTo(connectsInFlight));
        }
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("stomp sessions: " + users + " held at peak; " + users + " connects");
        assertThat(demo.server().sessionsDroppedWithoutClose())
                .as("sessions the run left to the JVM's exit")
                .isEqualTo(droppedBefore);
    }

    /**
     * SockJS's /ws without the login steps: the demo server refuses every user (403). Each user's first connect is
     * one failed row with its code; a user tries again only after its backoff (at least half the shortest delay),
     * which here outlasts the run's duration (a thread waiting for a user's backoff ends after that user's retry).
     */
    @Test
    void aRefusedConnectIsOneFailedRowWithItsCodeAndTheUserBacksOff() throws Exception {
        int users = 40;
        long minMillis = 30_000;
        PlanRun run = PlanRun.run(
                dir.resolve("refused"),
                "connect",
                false,
                List.of(
                        "port=" + demo.port(),
                        "endpoint=/ws",
                        "transport=websocket",
                        "indexPath=none",
                        "pullPath=none",
                        "users=" + users,
                        "threads=2",
                        "rampUp=0",
                        "duration=10",
                        "aliveMillis=500",
                        "connectsInFlight=8",
                        "sockjsstomp.reconnectMinMillis=" + minMillis,
                        "sockjsstomp.reconnectMaxMillis=" + minMillis));

        List<Map<String, String>> sessions = rows(run, "session").stream()
                .sorted(Comparator.comparingLong(r -> Long.parseLong(r.get("timeStamp"))))
                .toList();
        assertThat(sessions).hasSizeBetween(users, 2 * users).allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("false");
            assertThat(r.get("responseCode")).isEqualTo("403");
            assertThat(r.get("responseMessage")).contains("403");
        });
        List<Map<String, String>> firstPass = sessions.subList(0, users);
        assertThat(firstPass.stream().collect(Collectors.groupingBy(r -> r.get("threadName"), Collectors.counting())))
                .as("first connects per thread")
                .hasSize(2)
                .allSatisfy((thread, rows) -> assertThat(rows).isEqualTo(users / 2));
        // the earliest a first connect failed: no retry may start sooner than half the delay after it
        long firstFailure = firstPass.stream()
                .mapToLong(r -> Long.parseLong(r.get("timeStamp")) + Long.parseLong(r.get("elapsed")))
                .min()
                .orElseThrow();
        assertThat(sessions.subList(users, sessions.size()))
                .as("retries, each after its user's backoff")
                .allSatisfy(r -> assertThat(Long.parseLong(r.get("timeStamp")))
                        .isGreaterThanOrEqualTo(firstFailure + minMillis / 2 - 1));
        assertThat(run.count("session alive")).isZero();
        assertThat(Files.readString(run.dir().resolve("jmeter.log")))
                .contains("stomp connects failed: " + sessions.size() + " x 403");
    }

    /** Stop while many connects are under way: the run ends, and each session it opened was closed, none dropped. */
    @Test
    void stopMidConnectLeavesNoSessionOpen() throws Exception {
        int users = 1000;
        int udpPort;
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            udpPort = probe.getLocalPort();
        }
        long droppedBefore = demo.server().sessionsDroppedWithoutClose();
        List<String> properties = new ArrayList<>(raw(
                "users=" + users,
                "threads=2",
                "duration=120",
                "connectsInFlight=32",
                // 100 a second per thread: the 900 after the 100th take 4.5 s, time for Stop to come mid-connect
                "connectsPerSecond=100",
                "jmeterengine.nongui.port=" + udpPort,
                "jmeterengine.nongui.maxport=" + udpPort));
        PlanRun.Launch launch = PlanRun.launch(dir.resolve("stop"), "connect", false, properties);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (demo.server().connectedSessions() < 100 && launch.process().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(demo.server().connectedSessions()).as("sessions before Stop").isGreaterThanOrEqualTo(100);
        byte[] datagram = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.send(new DatagramPacket(datagram, datagram.length, InetAddress.getLoopbackAddress(), udpPort));
        }
        PlanRun run = launch.await();

        long sessionRows = run.count("session");
        System.out.printf(
                "ConnectsInFlightIT: %d session rows (%d Interrupted) before Stop of %d users%n",
                sessionRows,
                rows(run, "session").stream()
                        .filter(r -> r.get("responseCode").equals("Interrupted"))
                        .count(),
                users);
        assertThat(sessionRows).as("stopped mid-connect").isLessThan(users);
        // a connect under way at Stop is given up as interrupted, not failed by the transport Stop closed under it
        assertThat(rows(run, "session").stream().filter(r -> r.get("success").equals("false")))
                .allSatisfy(r -> assertThat(r.get("responseCode"))
                        .as(r.get("responseMessage"))
                        .isEqualTo("Interrupted"));
        long waitUntil = System.nanoTime() + 20_000_000_000L;
        while (demo.server().connectedSessions() > 0 && System.nanoTime() < waitUntil) {
            Thread.sleep(50);
        }
        assertThat(demo.server().connectedSessions())
                .as("sessions left on the server")
                .isZero();
        assertThat(demo.server().sessionsDroppedWithoutClose())
                .as("sessions left open until JMeter's JVM exited")
                .isEqualTo(droppedBefore);
    }

    /** connect.jmx on the demo server's raw endpoint, no login steps, all at once. */
    private static List<String> raw(String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "port=" + demo.port(),
                "transport=raw",
                "endpoint=/stomp-ws",
                "indexPath=none",
                "pullPath=none",
                "rampUp=0",
                "aliveMillis=500"));
        properties.addAll(List.of(more));
        return properties;
    }

    private static List<Map<String, String>> rows(PlanRun run, String label) {
        Predicate<Map<String, String>> labelled = r -> r.get("label").equals(label);
        return run.rows().stream().filter(labelled).toList();
    }

    private static int userNumber(String message) {
        Matcher m = USER.matcher(message);
        assertThat(m.find()).as(message).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /**
     * Per thread, the most of its session rows whose times overlap at once: a row spans [timeStamp, timeStamp +
     * elapsed), so a row that ends at the millisecond another starts does not overlap it.
     */
    static Map<String, Integer> mostAtOnceByThread(List<Map<String, String>> rows) {
        Map<String, List<Map<String, String>>> byThread = rows.stream()
                .collect(Collectors.groupingBy(r -> r.get("threadName"), TreeMap::new, Collectors.toList()));
        Map<String, Integer> most = new TreeMap<>();
        byThread.forEach((thread, own) -> {
            List<long[]> events = new ArrayList<>();
            for (Map<String, String> r : own) {
                long start = Long.parseLong(r.get("timeStamp"));
                long end = start + Long.parseLong(r.get("elapsed"));
                if (end > start) { // a row of no time overlaps nothing
                    events.add(new long[] {start, 1});
                    events.add(new long[] {end, -1});
                }
            }
            // an end before a start at the same millisecond: half-open spans
            events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
            int now = 0;
            int top = 0;
            for (long[] e : events) {
                now += (int) e[1];
                top = Math.max(top, now);
            }
            most.put(thread, top);
        });
        return most;
    }
}
