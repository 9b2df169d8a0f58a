package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * echo.jmx's closed loop against a broker nobody here wrote (ActiveMQ Artemis, embedded, STOMP over a plain
 * WebSocket), many users per thread, each answered by the broker's RECEIPT ({@code mode=await-receipt}). Counts,
 * contents and each user's order, never elapsed times.
 */
class ClosedLoopBrokerIT {

    private static final int USERS = 20;
    private static final long PAUSE_MILLIS = 100;

    @TempDir
    static Path dir;

    private static ArtemisBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        PlanRun.jmeterHome();
        broker = ArtemisBroker.start(dir.resolve("artemis"), Map.of("guest", "guest"), 0);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void manyUsersPerThreadEachWaitingForItsReceiptThenItsPause() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("echo"),
                "echo",
                false,
                broker.planProperties(
                        "login=guest",
                        "passcode=guest",
                        "users=" + USERS,
                        "rampUp=0",
                        "duration=8",
                        "mode=await-receipt",
                        "replySamples=false", // the loop's own rows are what this run looks at
                        "pauseMillis=" + PAUSE_MILLIS,
                        "destination=/queue/echo.{{userNumber}}",
                        "subscribeTo=/queue/echo.{{userNumber}}",
                        "replyTimeoutMillis=3000"));
        List<String[]> timing = run.timing();
        assertThat(timing)
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"))
                .allSatisfy(r -> assertThat(r[9]).isEqualTo("await-receipt"))
                .allSatisfy(r -> assertThat(r[16]).as("receipt_us").isNotEqualTo("-1"));
        Map<String, List<String[]>> byUser = ClosedLoopIT.inSentOrder(timing);
        assertThat(byUser).hasSize(USERS);
        byUser.forEach((user, sent) -> {
            assertThat(sent.size()).as("%s's messages", user).isGreaterThanOrEqualTo(3);
            assertThat(sent).allSatisfy(r -> assertThat(r[6]).isEqualTo("/queue/echo." + user.replaceAll("\\D", "")));
            ClosedLoopIT.assertEachAfterTheLastOutcomeAndThePause(user, sent, PAUSE_MILLIS);
        });
        // At the threads' end time the loop sends no more and waits for what is in flight: every message is in a
        // sample, and the samples share their users' round trips.
        assertThat(run.count("echo")).isEqualTo(timing.size());
        assertThat(run.rows().stream()
                        .filter(r -> r.get("label").equals("echo"))
                        .count())
                .isLessThan(timing.size());
        assertThat(run.threads("echo")).hasSize(2);
        assertThat(run.books())
                .extracting(
                        BooksLine::sent, BooksLine::answered, BooksLine::lost, BooksLine::failed, BooksLine::pending)
                .containsExactly((long) timing.size(), (long) timing.size(), 0L, 0L, 0L);
    }
}
