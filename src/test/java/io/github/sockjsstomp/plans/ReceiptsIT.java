package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Receipts through the real JMeter launcher, with {@code -J} options only: against ActiveMQ Artemis, which
 * answers every SEND with a RECEIPT (and a refused one with an ERROR naming it), and against the demo server,
 * whose Spring simple broker sends RECEIPT only for DISCONNECT: there every message is without one. Counts and
 * contents only.
 */
class ReceiptsIT {

    private static final int RECEIPT_US = 16;
    private static final Map<String, String> USERS = Map.of("guest", "guest");

    @TempDir
    static Path dir;

    private static ArtemisBroker broker;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @BeforeAll
    static void startBroker() throws Exception {
        PlanRun.jmeterHome();
        broker = ArtemisBroker.start(dir.resolve("artemis"), USERS, 0);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    private static List<String> artemis(String... more) {
        List<String> properties = broker.planProperties(
                "login=guest", "passcode=guest", "threads=2", "rampUp=0", "duration=6", "replyTimeoutMillis=3000");
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    @Test
    void everySendToArtemisHasItsReceiptBesideItsReply() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("send"),
                "send",
                false,
                artemis(
                        "receipts=true",
                        "messagesPerSecond=20",
                        // docs/receipts.md's line (ReadmeCommandsIT checks it asks for this run)
                        "destination=/queue/echo.{{userNumber}}",
                        "subscribeTo=/queue/echo.{{userNumber}}"));
        List<String[]> timing = run.timing();
        assertThat(timing).isNotEmpty().allSatisfy(r -> {
            assertThat(r).as(String.join(",", r)).hasSize(18);
            assertThat(r[1]).isEqualTo("ANSWERED");
            assertThat(Long.parseLong(r[RECEIPT_US])).as("receipt_us").isNotNegative();
        });
        // send.jmx's reply samples: a reply row per message but those the replies thread's end left to the drain
        assertThat(run.count("send")).as("send rows kept out of the listeners").isZero();
        long replies = run.labels().entrySet().stream()
                .filter(e -> e.getKey().startsWith("reply /queue/echo."))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long drained = PlanRun.finishedFromTheLastReplyRow(run.rows(), run.timingLog());
        assertThat(replies)
                .as("reply rows, %d in the drain aside; samples %s", drained, run.labels())
                .isBetween(timing.size() - drained, (long) timing.size());
        BooksLine books = run.books();
        long n = timing.size();
        assertThat(books.allAnswered(n)).as(books.line()).isTrue();
        assertThat(books).extracting(BooksLine::receipts, BooksLine::noReceipts).containsExactly(n, 0L);
        assertThat(books.line()).contains("(%d receipts)".formatted(n));
    }

    /** No one subscribes: the receipt is the only answer there is, and the sample waits for it. */
    @Test
    void awaitReceiptIsAnsweredByTheReceiptAlone() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("await-receipt"),
                "echo",
                false,
                artemis(
                        "mode=await-receipt",
                        // the blocking sample's own words are checked here; the closed loop's: ClosedLoopBrokerIT
                        "loop=blocking",
                        "replySamples=false",
                        "pauseMillis=100",
                        // docs/receipts.md's line (ReadmeCommandsIT checks it asks for this run)
                        "destination=/queue/orders.{{userNumber}}",
                        "subscribeTo=none"));
        List<String[]> timing = run.timing();
        assertThat(timing).isNotEmpty().allSatisfy(r -> {
            assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED");
            assertThat(r[9]).isEqualTo("await-receipt");
            assertThat(r[5]).as("the sender's own receipt").isEqualTo(r[4]);
            assertThat(r[15]).isEqualTo(r[14]);
            assertThat(r[3]).as("latency_us is the receipt's").isEqualTo(r[RECEIPT_US]);
        });
        assertThat(run.count("echo")).isEqualTo(timing.size());
        assertThat(run.rows())
                .filteredOn(r -> r.get("label").equals("echo"))
                .allSatisfy(r -> assertThat(r.get("responseMessage")).startsWith("Receipt for "));
        long n = timing.size();
        BooksLine books = run.books();
        assertThat(books.allAnswered(n)).as(books.line()).isTrue();
        assertThat(books).extracting(BooksLine::receipts, BooksLine::noReceipts).containsExactly(n, 0L);
    }

    /** Artemis refuses a SEND to an address the user may not send to with an ERROR naming its receipt. */
    @Test
    void anErrorNamingTheReceiptFailsThatMessageWithTheBrokersWords() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("refused"),
                "echo",
                false,
                artemis(
                        "replySamples=false", // the echo rows' own words are checked here
                        "mode=await-receipt",
                        "pauseMillis=100",
                        "destination=/queue/" + ArtemisBroker.READ_ONLY_PREFIX + "{{userNumber}}",
                        "subscribeTo=none"));
        run.timing(); // the header
        // Artemis's words hold commas: read the log as CSV.
        List<List<String>> timing = PlanRun.parseCsv(Files.readString(run.timingLog())).stream()
                .skip(1)
                .toList();
        assertThat(timing).isNotEmpty().allSatisfy(r -> {
            assertThat(r).hasSize(18);
            assertThat(r.get(1)).as(String.join(",", r)).isEqualTo("FAILED");
            assertThat(r.get(8))
                    .startsWith("StompError: AMQ339011 Error sending message")
                    .contains("address=" + ArtemisBroker.READ_ONLY_PREFIX);
            assertThat(r.get(RECEIPT_US)).isEmpty();
        });
        List<Map<String, String>> echo =
                run.rows().stream().filter(r -> r.get("label").equals("echo")).toList();
        assertThat(echo).hasSize(timing.size()).allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("false");
            assertThat(r.get("responseCode")).isEqualTo("StompError");
        });
        long n = timing.size();
        BooksLine books = run.books();
        assertThat(books)
                .extracting(
                        BooksLine::sent, BooksLine::answered, BooksLine::lost, BooksLine::failed, BooksLine::pending)
                .containsExactly(n, 0L, 0L, n, 0L);
        assertThat(books).extracting(BooksLine::receipts, BooksLine::noReceipts).containsExactly(0L, n);
    }

    /**
     * Spring's simple broker (the demo server) answers a SEND's receipt header with nothing: every message is
     * answered, none has a receipt, and the books say so.
     */
    @Test
    void theDemoServerSendsNoReceiptForASend() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("demo"),
                "send",
                false,
                List.of(
                        "port=" + demo.port(),
                        "indexPath=/index",
                        "pullPath=/clientPull",
                        "receipts=true",
                        "threads=2",
                        "rampUp=0",
                        // the duration counts from the threads' start: on a loaded machine the logins and connects
                        // took all of 3 s once, and no message was sent
                        "duration=6",
                        "messagesPerSecond=20",
                        "replyTimeoutMillis=1000"));
        List<String[]> timing = run.timing();
        Set<String> outcomes = timing.stream().map(r -> r[1]).collect(Collectors.toSet());
        assertThat(outcomes).containsExactly("ANSWERED");
        assertThat(timing)
                .allSatisfy(
                        r -> assertThat(r[RECEIPT_US]).as(String.join(",", r)).isEmpty());
        long n = timing.size();
        BooksLine books = run.books();
        assertThat(books.allAnswered(n)).as(books.line()).isTrue();
        assertThat(books).extracting(BooksLine::receipts, BooksLine::noReceipts).containsExactly(0L, n);
    }
}
