package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * echo.jmx's closed loop with its server gone mid-run and back (a loopback proxy that resets every connection and
 * refuses new ones, as a stopped broker does): the messages in flight end FAILED or LOST, each user reconnects with
 * its backoff, and every user's loop goes on once the server is back. Counts and order, never elapsed times.
 */
class ClosedLoopOutageIT {

    private static final int USERS = 20;
    private static final long OUTAGE_MILLIS = 3000;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    @Test
    void theUsersReconnectWithBackoffAndTheirLoopsGoOnWithExactBooks() throws Exception {
        PlanRun run;
        long upAgainMillis;
        try (OutageProxy proxy = new OutageProxy(demo.port())) {
            PlanRun.Launch launch = PlanRun.launch(
                    dir.resolve("outage"),
                    "echo",
                    false,
                    List.of(
                            "port=" + proxy.port(),
                            "transport=raw",
                            "endpoint=/stomp-ws",
                            "indexPath=none",
                            "pullPath=none",
                            "heartbeatMillis=0",
                            "users=" + USERS,
                            "rampUp=0",
                            "duration=16",
                            "pauseMillis=100",
                            "replyTimeoutMillis=2000",
                            "connectTimeoutMillis=2000",
                            "sockjsstomp.reconnectMinMillis=500",
                            "sockjsstomp.reconnectMaxMillis=2000"));
            awaitSessions(USERS, launch);
            launch.awaitTimingRecords(USERS * 3);
            proxy.down();
            Thread.sleep(OUTAGE_MILLIS);
            proxy.up();
            upAgainMillis = System.currentTimeMillis();
            awaitSessions(USERS, launch);
            run = launch.await();
        }
        List<String[]> timing = run.timing();
        Map<String, Long> outcomes = timing.stream().collect(Collectors.groupingBy(r -> r[1], Collectors.counting()));
        // A message in flight when the server went away FAILED; with a 100 ms pause and a round trip of a few ms,
        // every user may have been pausing at that moment, so none need have been (the failed reconnects below show
        // the outage).
        assertThat(outcomes.keySet()).contains("ANSWERED").isSubsetOf("ANSWERED", "LOST", "FAILED");
        assertThat(run.books())
                .extracting(
                        BooksLine::sent, BooksLine::answered, BooksLine::lost, BooksLine::failed, BooksLine::pending)
                .containsExactly(
                        (long) timing.size(),
                        outcomes.getOrDefault("ANSWERED", 0L),
                        outcomes.getOrDefault("LOST", 0L),
                        outcomes.getOrDefault("FAILED", 0L),
                        0L);

        Map<String, List<String[]>> byUser = ClosedLoopIT.inSentOrder(timing);
        assertThat(byUser).hasSize(USERS);
        byUser.forEach((user, sent) -> {
            ClosedLoopIT.assertEachAfterTheLastOutcomeAndThePause(user, sent, 100);
            assertThat(sent.stream()
                            .filter(r -> r[1].equals("ANSWERED"))
                            .filter(r -> Long.parseLong(r[11]) / 1000 > upAgainMillis))
                    .as("%s's messages answered after the server came back", user)
                    .isNotEmpty();
        });

        // A lost user's reconnects are rows of their own; those that failed while the server was away say why.
        List<Map<String, String>> reconnects = run.rows().stream()
                .filter(r -> r.get("label").equals("echo reconnect"))
                .toList();
        assertThat(reconnects).anyMatch(r -> r.get("success").equals("false"));
        String console = Files.readString(run.dir().resolve("console.txt"));
        assertThat(console).as(console).contains(" unreachable (").contains(" reachable again");
    }

    private static void awaitSessions(int wanted, PlanRun.Launch launch) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (demo.server().connectedSessions() < wanted
                && System.nanoTime() < deadline
                && launch.process().isAlive()) {
            Thread.sleep(100);
        }
        assertThat(demo.server().connectedSessions())
                .as("sessions on the server; console: %s", Files.readString(launch.console()))
                .isGreaterThanOrEqualTo(wanted);
    }
}
