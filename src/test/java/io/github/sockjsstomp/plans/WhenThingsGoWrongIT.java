package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults a user meets, through a real JMeter: a bad value is said once and stops the test instead of filling the
 * results file; a timing log that cannot be written is said at once on the console, counted in the books, and
 * stops the test unless the user asks to go on; a property no plan reads is said, with the nearest one it reads.
 */
class WhenThingsGoWrongIT {

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    /** users was the users file's name: a file name there now gets one thread, whose ConfigError says where it goes. */
    @Test
    void aUsersValueThatIsNoNumberIsOneConfigErrorNamingUsersAndUsersFile() throws Exception {
        PlanRun run = send("bad-users", "users=users.csv", "rampUp=0", "duration=60");
        assertThat(run.rows()).isNotEmpty().hasSizeLessThanOrEqualTo(1).allSatisfy(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage"))
                    .contains("Parameter 'users' has value 'users.csv': expected a whole number of virtual users")
                    .contains("usersFile");
        });
    }

    /**
     * throughput was send.jmx's rate in messages per minute; typed as before, the plan would run at its default
     * messagesPerSecond in silence. It stops the test, on the console and in the first sample, naming the new name.
     */
    @Test
    void throughputTypedAsBeforeStopsTheTestNamingMessagesPerSecond() throws Exception {
        PlanRun run = send("old-throughput", "threads=1", "rampUp=0", "duration=60", "throughput=120000");
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("stomp: -Jthroughput=120000 is not read by send.jmx: the send test's rate is in messages per"
                        + " second")
                .contains("use -JmessagesPerSecond; the test stops");
        assertThat(run.rows()).isNotEmpty().hasSizeLessThanOrEqualTo(1).allSatisfy(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage")).contains("-Jthroughput=120000").contains("use -JmessagesPerSecond");
        });
        assertThat(Files.readString(run.dir().resolve("jmeter.log")))
                .as("no message was sent")
                .doesNotContain("STOMP timing books");
    }

    @Test
    void anUnknownPlaceholderIsAConfigErrorNamingIt() throws Exception {
        PlanRun run = send("bad-placeholder", "threads=2", "rampUp=0", "duration=60", "payload={\"x\":\"{{nope}}\"}");
        List<Map<String, String>> sends =
                run.rows().stream().filter(r -> r.get("label").equals("send")).toList();
        assertThat(sends).isNotEmpty().hasSizeLessThanOrEqualTo(2).allSatisfy(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage")).contains("'payload'").contains("unknown placeholder {{nope}}");
        });
        assertThat(Files.readString(run.dir().resolve("jmeter.log")))
                .as("no message was sent")
                .doesNotContain("STOMP timing books");
    }

    /** /dev/full answers every write with "No space left on device", as a full disk does. */
    @Test
    void aTimingLogThatCannotBeWrittenIsSaidAtOnceCountedAndStopsTheTest() throws Exception {
        Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs Linux's /dev/full");
        PlanRun run = send(
                "full-disk", "threads=2", "rampUp=0", "duration=60", "messagesPerSecond=100", "timingLog=/dev/full");
        String console = Files.readString(run.dir().resolve("console.txt"));
        assertThat(console)
                .contains("stomp: Timing log /dev/full cannot be written (No space left on device)")
                .contains("the test stops");
        assertBooksCountEveryMessageUnwritten(run);
    }

    @Test
    void aUserMayKeepTheTestRunningWithoutItsTimingLog() throws Exception {
        Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs Linux's /dev/full");
        PlanRun run = send(
                "full-disk-continue",
                "threads=2",
                "rampUp=0",
                "duration=7",
                "messagesPerSecond=100",
                "timingLog=/dev/full",
                "sockjsstomp.onTimingLogFailure=continue");
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("cannot be written")
                .contains("the test goes on");
        assertBooksCountEveryMessageUnwritten(run);
    }

    /**
     * Nothing typed is ignored in silence: the send test run with a misspelt property, a property of another plan
     * and a misspelt JVM-wide setting says each once on the console at the start of the run, with the nearest name
     * send.jmx reads, and runs as before.
     */
    @Test
    void theSendTestSaysEachPropertyItDoesNotReadOnceWithTheNearestItReads() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("send"),
                "send",
                false,
                List.of(
                        "port=" + demo.port(),
                        "indexPath=/index",
                        "pullPath=/clientPull",
                        "threads=1",
                        "rampUp=0",
                        // 5 s on a loaded machine ended with the user connected and no message sent
                        "duration=10",
                        "sockjsstomp.warmUp=false",
                        "destinaton=/app/elsewhere",
                        "holdMillis=1500",
                        "sockjsstomp.warmup=true"));
        List<String> console = Files.readAllLines(run.dir().resolve("console.txt"));
        List<String> said =
                console.stream().filter(line -> line.startsWith("stomp: -J")).toList();
        assertThat(said)
                .containsExactly(
                        "stomp: -Jdestinaton=/app/elsewhere is not read by send.jmx: did you mean destination?",
                        "stomp: -JholdMillis=1500 is not read by send.jmx (another plan's property); the nearest it"
                                + " reads is tickMillis",
                        "stomp: -Jsockjsstomp.warmup=true is not a setting of the plugin: did you mean"
                                + " sockjsstomp.warmUp?");
        // The send test itself still sent to its own destination and every message was answered.
        assertThat(run.count("reply /app/echo"))
                .as("reply samples (one per message) among %s; console: %s", run.labels(), String.join("\n", console))
                .isPositive();
        assertThat(run.timing()).isNotEmpty().allSatisfy(r -> assertThat(r[6]).isEqualTo("/app/echo"));
        assertThat(run.timing()).allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
    }

    private static void assertBooksCountEveryMessageUnwritten(PlanRun run) throws Exception {
        PlanRun.BooksLine books = run.books();
        assertThat(books.sent()).isPositive();
        assertThat(books.pending()).isZero();
        assertThat(books.unwritten())
                .as("one record per message, none written: %s", books.line())
                .isEqualTo(books.sent());
    }

    private static PlanRun send(String name, String... properties) throws Exception {
        List<String> all = new ArrayList<>(
                List.of("port=" + demo.port(), "indexPath=/index", "pullPath=/clientPull", "replySamples=false"));
        all.addAll(Arrays.asList(properties));
        return PlanRun.launch(dir.resolve(name), "send", false, all).await();
    }
}
