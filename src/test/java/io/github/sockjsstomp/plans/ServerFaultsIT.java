package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a server does wrong, said where users look, through a real JMeter (issue 29): a server that refuses SENDs
 * with an ERROR frame and keeps the session open, as RabbitMQ does for a destination it does not know (the demo
 * server's strict broker); a server that falls behind (Spring's greeting app); a handshake refused to every user.
 */
class ServerFaultsIT {

    private static final String RABBIT_WORDS = "Unknown destination: '/unknown/hello' is not a valid destination.";

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    static Path dir;

    /** RabbitMQ's ERROR names no message: the messages are LOST, and everything else says the server refused them. */
    @Test
    void aRefusedSendIsSaidOnceOnTheConsoleCountedAndFailsSamples() throws Exception {
        PlanRun run = strict("refused-send", "destination=/unknown/hello");
        String console = console(run);
        PlanRun.BooksLine books = endedBooks(run);
        long sent = books.sent();
        long lost = books.lost();
        assertThat(sent).isPositive();
        assertThat(lost).as("every message refused, none named: LOST").isEqualTo(sent);
        assertThat(books.failed()).isZero();

        assertThat(occurrences(console, "stomp: the server refused a frame with an ERROR"))
                .as("said once: %s", console)
                .isEqualTo(1);
        assertThat(console)
                .contains("\"" + RABBIT_WORDS)
                .contains("its last SEND went to /unknown/hello")
                .contains("stomp server refusals (ERROR frames): " + sent + " x " + RABBIT_WORDS)
                .contains("stomp: " + lost + " messages were LOST while the server was refusing")
                .containsPattern("refused by the server \\d+ \\(ERROR frames\\)");
        List<Map<String, String>> refused = run.rows().stream()
                .filter(r -> "ServerError".equals(r.get("responseCode")))
                .toList();
        assertThat(refused).isNotEmpty().allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("false");
            assertThat(r.get("responseMessage")).contains(RABBIT_WORDS);
        });
        assertThat(run.timing())
                .hasSize((int) sent)
                .allSatisfy(r -> assertThat(r[1]).isEqualTo("LOST"));
        assertThat(Files.readString(run.dir().resolve("jmeter.log")))
                .as("one line per text, not one WARN per ERROR frame")
                .doesNotContain("got ERROR frame");
    }

    /** With receipts the ERROR carries the receipt-id: the message it refuses is FAILED with the server's words. */
    @Test
    void aRefusalNamingItsMessageFailsItInTheBooksAndTheTimingLog() throws Exception {
        PlanRun run = strict("refused-receipted", "destination=/unknown/hello", "receipts=true");
        PlanRun.BooksLine books = endedBooks(run);
        long sent = books.sent();
        assertThat(sent).isPositive();
        assertThat(books.failed()).as("failed: %s", console(run)).isEqualTo(sent);
        assertThat(books.answered() + books.lost()).isZero();
        List<List<String>> records = PlanRun.parseCsv(Files.readString(run.timingLog(), StandardCharsets.UTF_8));
        assertThat(records.subList(1, records.size())).hasSize((int) sent).allSatisfy(r -> {
            assertThat(r.get(1)).isEqualTo("FAILED");
            assertThat(r.get(8)).startsWith("StompError: " + RABBIT_WORDS);
        });
        assertThat(console(run))
                .contains("The message it names is FAILED")
                .contains("stomp server refusals (ERROR frames): " + sent + " x " + RABBIT_WORDS);
        assertThat(run.rows()).anySatisfy(r -> assertThat(r.get("responseCode")).isEqualTo("ServerError"));
    }

    /** echo.jmx without the demo server's login steps: every handshake gets HTTP 403. */
    @Test
    void aRefusedHandshakeIsOneLineInJMeterLogAndACountAtTheEnd() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("handshake-403"),
                "echo",
                false,
                List.of("port=" + demo.port(), "threads=3", "rampUp=0", "duration=5"));
        List<String> log = Files.readAllLines(run.dir().resolve("jmeter.log"));
        assertThat(log)
                .as("no stack trace")
                .noneMatch(line -> line.startsWith("\tat ") || line.startsWith("Caused by"));
        assertThat(log)
                .filteredOn(line -> line.contains("Connect failed (403"))
                .singleElement()
                .asString()
                .contains("WARN")
                .contains("Handshake refused with HTTP 403");
        long failedConnects = run.rows().stream()
                .filter(r -> "403".equals(r.get("responseCode")) && !"connect".equals(r.get("label")))
                .count();
        assertThat(failedConnects).isPositive();
        assertThat(log)
                .filteredOn(line -> line.contains("stomp connects failed: "))
                .singleElement()
                .asString()
                .contains("stomp connects failed: " + failedConnects + " x 403: ");
    }

    private static PlanRun strict(String name, String... properties) throws Exception {
        List<String> all = new ArrayList<>(List.of(
                "port=" + demo.port(),
                "endpoint=/stomp-strict",
                "transport=raw",
                "subscribeTo=/queue/echo",
                "heartbeatMillis=0",
                "threads=2",
                "rampUp=0",
                // a loaded machine's warm-up could take the whole of a short test
                "sockjsstomp.warmUp=false",
                "duration=8",
                "messagesPerSecond=10",
                "replyTimeoutMillis=1000"));
        all.addAll(Arrays.asList(properties));
        return PlanRun.run(dir.resolve(name), "send", false, all);
    }

    private static String console(PlanRun run) throws Exception {
        return Files.readString(run.dir().resolve("console.txt"));
    }

    /** The run's books in jmeter.log, which must balance with nothing pending. */
    private static PlanRun.BooksLine endedBooks(PlanRun run) throws Exception {
        PlanRun.BooksLine books = run.books();
        assertThat(books.balanced()).as("balanced: %s", books.line()).isTrue();
        assertThat(books.pending()).as("pending: %s", books.line()).isZero();
        return books;
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
