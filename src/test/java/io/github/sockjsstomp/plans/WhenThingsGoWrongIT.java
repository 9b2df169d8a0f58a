package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults a user meets, through a real JMeter: a bad value is said once and stops the test instead of filling the
 * results file; a timing log that cannot be written is said at once on the console, counted in the books, and
 * stops the test unless the user asks to go on.
 */
class WhenThingsGoWrongIT {

    private static DemoServer server;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startServer() {
        server = DemoServer.start(0);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
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
        PlanRun run =
                send("full-disk", "threads=2", "rampUp=0", "duration=60", "throughput=6000", "timingLog=/dev/full");
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
                "duration=4",
                "throughput=6000",
                "timingLog=/dev/full",
                "sockjsstomp.onTimingLogFailure=continue");
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("cannot be written")
                .contains("the test goes on");
        assertBooksCountEveryMessageUnwritten(run);
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
                List.of("port=" + server.port(), "indexPath=/index", "pullPath=/clientPull", "replySamples=false"));
        all.addAll(Arrays.asList(properties));
        return PlanRun.launch(dir.resolve(name), "send", false, all).await();
    }
}
