package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServer;
import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * echo.jmx's closed loop ({@code loop=closed}, its default) through a real JMeter against the demo server: many
 * users per thread, each sending its next message only after its last one's outcome and its pause. Counts, contents
 * and the order of each user's messages, never elapsed times.
 */
class ClosedLoopIT {

    private static final int USERS = 30;
    private static final long PAUSE_MILLIS = 200;
    private static final long TIMEOUT_MILLIS = 1000;
    /** Wall clock (the send stamps) against the monotonic one (the latencies): a stamp is rounded to 1 us. */
    private static final long CLOCKS_SLACK_US = 1000;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    static List<String> demo(String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "port=" + demo.port(),
                "transport=raw",
                "endpoint=/stomp-ws",
                "indexPath=none",
                "pullPath=none",
                "heartbeatMillis=0",
                "rampUp=0",
                "duration=8",
                // the loop's own rows are what these runs look at: without reply rows, which would keep them out
                "replySamples=false"));
        properties.addAll(List.of(more));
        return properties;
    }

    /**
     * Every third message of each user goes unanswered ({@code /app/echo-lossy}): it is LOST at its timeout and the
     * user goes on; each user's messages leave one at a time, each after the last one's outcome and the pause.
     */
    @Test
    void manyUsersPerThreadEachInItsOwnLoopALostMessageAndTheUserGoesOn() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("lossy"),
                "echo",
                false,
                demo(
                        "users=" + USERS,
                        "destination=/app/echo-lossy",
                        "pauseMillis=" + PAUSE_MILLIS,
                        "replyTimeoutMillis=" + TIMEOUT_MILLIS));
        List<String[]> timing = run.timing();
        assertThat(timing).allSatisfy(r -> assertThat(r[9]).isEqualTo("await-reply"));
        assertThat(timing)
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isIn("ANSWERED", "LOST"));
        assertThat(timing.stream().filter(r -> r[1].equals("LOST")))
                .allSatisfy(r -> assertThat(r[8]).isEqualTo("timeout"));

        Map<String, List<String[]>> byUser = inSentOrder(timing);
        assertThat(byUser).hasSize(USERS);
        for (Map.Entry<String, List<String[]>> user : byUser.entrySet()) {
            List<String[]> sent = user.getValue();
            assertThat(sent.size()).as("%s's messages", user.getKey()).isGreaterThanOrEqualTo(4);
            for (int k = 1; k <= sent.size(); k++) {
                String[] record = sent.get(k - 1);
                assertThat(record[1])
                        .as("%s's message %d (%s)", user.getKey(), k, record[2])
                        .isEqualTo(k % DemoServer.ECHO_LOSSY_EVERY == 0 ? "LOST" : "ANSWERED");
            }
            assertEachAfterTheLastOutcomeAndThePause(user.getKey(), sent, PAUSE_MILLIS);
        }

        long answered = timing.stream().filter(r -> r[1].equals("ANSWERED")).count();
        long lost = timing.size() - answered;
        assertThat(run.books())
                .extracting(
                        BooksLine::sent, BooksLine::answered, BooksLine::lost, BooksLine::failed, BooksLine::pending)
                .containsExactly((long) timing.size(), answered, lost, 0L, 0L);

        // The samples: the round trips answered, many per row, on 2 threads (send.jmx's default for 30 users); each
        // LOST one a failed row of its own (those that ended after the threads' end time are in the timing log only).
        List<Map<String, String>> rows =
                run.rows().stream().filter(r -> r.get("label").equals("echo")).toList();
        List<Map<String, String>> ok =
                rows.stream().filter(r -> r.get("success").equals("true")).toList();
        List<Map<String, String>> failed =
                rows.stream().filter(r -> r.get("success").equals("false")).toList();
        assertThat(ok.stream().mapToLong(PlanRun::sampleCount).sum()).isEqualTo(answered);
        assertThat(ok).allSatisfy(r -> assertThat(r.get("responseMessage")).contains("answered (mean "));
        assertThat(ok.stream().filter(r -> PlanRun.sampleCount(r) > 1))
                .as("rows of several round trips")
                .isNotEmpty();
        assertThat(failed).allSatisfy(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ReplyTimeout");
            assertThat(PlanRun.sampleCount(r)).isEqualTo(1);
        });
        assertThat((long) failed.size()).isBetween(lost - USERS, lost);
        assertThat(run.threads("echo")).hasSize(2);
        assertThat(run.rows().stream().filter(r -> r.get("label").equals("session")))
                .hasSize(USERS)
                .allSatisfy(r -> assertThat(r.get("success")).isEqualTo("true"));
    }

    /**
     * JMeter's Stop (StopTestNow, as bin/stoptest.sh sends it) mid-run: the threads end at once, the messages in
     * flight go to the end-of-test drain, and the books balance with every message in the timing log once.
     */
    @Test
    void stopMidRunEndsTheLoopsWithBalancedBooks() throws Exception {
        int udpPort;
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            udpPort = probe.getLocalPort();
        }
        PlanRun.Launch launch = PlanRun.launch(
                dir.resolve("stop"),
                "echo",
                false,
                demo(
                        "users=" + USERS,
                        "pauseMillis=0",
                        "duration=600",
                        "jmeterengine.nongui.port=" + udpPort,
                        "jmeterengine.nongui.maxport=" + udpPort));
        launch.awaitTimingRecords(USERS * 20);
        byte[] datagram = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.send(new DatagramPacket(datagram, datagram.length, InetAddress.getLoopbackAddress(), udpPort));
        }
        PlanRun run = launch.await();

        PlanRun.BooksLine books = run.books();
        assertThat(books.balanced()).as(books.line()).isTrue();
        assertThat(books.pending()).as(books.line()).isZero();
        List<String[]> timing = run.timing();
        assertThat(timing.stream().map(r -> r[2]).distinct().count()).isEqualTo(books.sent());
        assertThat(books.answered()).as(books.line()).isGreaterThanOrEqualTo(USERS * 20L);
        long answered = timing.stream().filter(r -> r[1].equals("ANSWERED")).count();
        assertThat(answered).isEqualTo(books.answered());
        inSentOrder(timing).forEach((user, sent) -> assertEachAfterTheLastOutcomeAndThePause(user, sent, 0));
        List<Map<String, String>> rows =
                run.rows().stream().filter(r -> r.get("label").equals("echo")).toList();
        assertThat(rows.stream()
                        .filter(r -> r.get("success").equals("true"))
                        .mapToLong(PlanRun::sampleCount)
                        .sum())
                .as("round trips in samples: those answered before the Stop")
                .isPositive()
                .isLessThanOrEqualTo(answered);
        assertThat(rows.stream().filter(r -> r.get("success").equals("false")))
                .allSatisfy(r -> assertThat(r.get("responseCode")).isIn("Interrupted", "ReplyTimeout"));
    }

    /** Each user's records in the order it sent them. */
    static Map<String, List<String[]>> inSentOrder(List<String[]> timing) {
        Map<String, List<String[]>> byUser =
                timing.stream().collect(Collectors.groupingBy(r -> r[14], TreeMap::new, Collectors.toList()));
        byUser.values().forEach(records -> records.sort(Comparator.comparingLong(r -> Long.parseLong(r[11]))));
        return byUser;
    }

    /**
     * A closed loop: message k+1 of a user left after message k's outcome (its reply, or its deadline when LOST) and
     * the user's pause. Lower bounds only: a loaded machine makes the gaps longer, never shorter.
     */
    static void assertEachAfterTheLastOutcomeAndThePause(String user, List<String[]> sent, long pauseMillis) {
        for (int k = 1; k < sent.size(); k++) {
            String[] last = sent.get(k - 1);
            String[] next = sent.get(k);
            // ANSWERED: after its reply and the pause; LOST: after its deadline and the pause; FAILED (its session
            // dropped or its SEND not written): at a moment the log does not keep, so only after it (the user goes
            // on from there, after a reconnect if its session dropped).
            long earliestGapUs = switch (last[1]) {
                case "ANSWERED" -> Long.parseLong(last[3]) + pauseMillis * 1000 - CLOCKS_SLACK_US;
                case "LOST" -> TIMEOUT_MILLIS * 1000 + pauseMillis * 1000 - CLOCKS_SLACK_US;
                default -> 0;
            };
            long gapUs = Long.parseLong(next[11]) - Long.parseLong(last[11]);
            assertThat(gapUs)
                    .as("%s: %s sent after %s's %s and the pause", user, next[2], last[2], last[1])
                    .isGreaterThanOrEqualTo(earliestGapUs);
        }
    }
}
