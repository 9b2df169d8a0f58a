package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.serverside.ExpectedCosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's own figures through a real JMeter: greetings.jmx against Spring's greeting app (in this JVM, with
 * Boot's actuator and the websocket.sessions gauge), polling its actuator and this JVM's pid into the
 * server-figures file.
 */
class ServerFiguresIT {

    @TempDir
    static Path dir;

    @Test
    void theGreetingAppsActuatorAndItsProcessArePolledIntoTheFileDuringTheRun() throws Exception {
        try (GreetingApp app = GreetingApp.start(false, 0)) {
            long pid = ProcessHandle.current().pid();
            Path file = dir.resolve("greetings/server.csv");
            long before = System.currentTimeMillis();
            PlanRun run = PlanRun.runClean(
                    dir.resolve("greetings"),
                    "greetings",
                    false,
                    List.of(
                            "host=127.0.0.1",
                            "port=" + app.port(),
                            "messages=3",
                            "holdMillis=2500",
                            "replySamples=false", // a hello row per greeting sent
                            "rampUp=0",
                            "serverFigures=actuator:http://127.0.0.1:" + app.port() + "/actuator,pid:" + pid,
                            "serverFiguresMillis=200",
                            "serverFiguresLog=" + file));
            long after = System.currentTimeMillis();
            assertThat(run.count("hello")).isEqualTo(6);

            List<String> lines = Files.readAllLines(file);
            assertThat(lines.get(0)).isEqualTo("epoch_ms,source,metric,value");
            List<Map<String, String>> rows = figureRows(file);
            assertThat(rows).allSatisfy(r -> {
                assertThat(Long.parseLong(r.get("epoch_ms"))).isBetween(before, after);
                assertThat(r.get("value")).matches("-?[0-9]+(\\.[0-9]+)?");
            });
            Map<String, Set<String>> metrics = rows.stream()
                    .collect(Collectors.groupingBy(
                            r -> r.get("source"), Collectors.mapping(r -> r.get("metric"), Collectors.toSet())));
            assertThat(metrics)
                    .containsOnlyKeys("generator", "actuator", "pid")
                    .containsEntry(
                            "generator",
                            Set.of("run", "sessions_held", "messages_sent", "rss_bytes", "heap_used_bytes"))
                    .containsEntry(
                            "actuator",
                            Set.of("process_cpu", "cpu_seconds", "heap_used_bytes", "gc_pause_ms", "sessions"))
                    .containsEntry("pid", Set.of("process_cpu", "cpu_seconds", "rss_bytes", "threads"));
            assertThat(values(rows, "generator", "messages_sent"))
                    .as("the greetings the run sent, counted at each poll")
                    .isSorted()
                    .contains(0.0, 6.0);

            assertThat(values(rows, "actuator", "sessions"))
                    .as("the two users' sessions, held while the greetings were sent")
                    .allSatisfy(v -> assertThat(v).isBetween(0.0, 2.0))
                    .contains(2.0);
            assertThat(values(rows, "actuator", "process_cpu"))
                    .allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
            assertThat(values(rows, "pid", "process_cpu"))
                    .allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
            assertThat(values(rows, "actuator", "heap_used_bytes"))
                    .allSatisfy(v -> assertThat(v).isPositive());
            assertThat(values(rows, "actuator", "gc_pause_ms"))
                    .allSatisfy(v -> assertThat(v).isGreaterThanOrEqualTo(0.0));
            assertThat(values(rows, "pid", "threads"))
                    .allSatisfy(v -> assertThat(v).isGreaterThan(10.0));
            assertThat(values(rows, "pid", "rss_bytes"))
                    .allSatisfy(v -> assertThat(v).isGreaterThan(1e6));

            // the run's end says what the readings give, beside the capacity figures
            List<String> said = costLines(run.dir());
            ZoneId zone = ZoneId.systemDefault();
            assertThat(said)
                    .containsExactly(
                            "stomp sessions: 2 held at peak",
                            "stomp server memory per held session: " + expected(file, zone, "actuator", "pid"),
                            "stomp generator memory per held session: " + expected(file, zone, "generator"),
                            "stomp server CPU per message: " + String.join("; ", ExpectedCosts.cpuFigures(file, zone)));
            assertThat(said.get(3))
                    .matches("stomp server CPU per message: [0-9.]+ us \\(actuator, .*, 6 messages sent\\); [0-9.]+ us"
                            + " \\(pid, .*, 6 messages sent\\)");
        }
    }

    /**
     * connect.jmx's users held against the greeting app: the server's heap (actuator) and RSS (its pid, this JVM)
     * per held session, and the generator's, said at the run's end from the file's readings; nothing sent, no CPU
     * line. It is also jmx/README.md's connect line for the greeting app, watched.
     */
    @Test
    void aConnectTestSaysTheServersAndTheGeneratorsMemoryPerHeldSession() throws Exception {
        try (GreetingApp app = GreetingApp.start(false, 0)) {
            Path file = dir.resolve("connect/server.csv");
            PlanRun run = PlanRun.runClean(
                    dir.resolve("connect"),
                    "connect",
                    false,
                    List.of(
                            "host=127.0.0.1",
                            "port=" + app.port(),
                            "endpoint=/gs-guide-websocket",
                            "subscribeTo=/topic/greetings",
                            "users=40",
                            "threads=2",
                            "rampUp=0",
                            "duration=6",
                            "aliveMillis=500",
                            "serverFigures=actuator:http://127.0.0.1:" + app.port() + "/actuator,pid:"
                                    + ProcessHandle.current().pid(),
                            "serverFiguresMillis=200",
                            "serverFiguresLog=" + file));
            assertThat(run.count("session")).isEqualTo(40);

            List<String> said = costLines(run.dir());
            ZoneId zone = ZoneId.systemDefault();
            assertThat(said)
                    .containsExactly(
                            "stomp sessions: 40 held at peak",
                            "stomp server memory per held session: " + expected(file, zone, "actuator", "pid"),
                            "stomp generator memory per held session: " + expected(file, zone, "generator"));
            assertThat(said.get(1))
                    .matches("stomp server memory per held session: -?[0-9.]+ (B|KB|MB) heap \\(actuator, [0-9.]+ MB"
                            + " at [0-9:.]+ with 0 held to [0-9.]+ MB at [0-9:.]+ with 40 held\\); -?[0-9.]+ (B|KB|MB)"
                            + " RSS \\(pid, .* with 40 held\\)");
            assertThat(said.get(2))
                    .matches("stomp generator memory per held session: -?[0-9.]+ (B|KB|MB) RSS \\(generator, .* with 40"
                            + " held\\); -?[0-9.]+ (B|KB|MB) heap \\(generator, .* with 40 held\\)");
        }
    }

    /**
     * The console's capacity line (its first part, to "held at peak") and the cost lines after it, in order: what
     * the run's end says of the sessions.
     */
    static List<String> costLines(Path runDir) throws Exception {
        return Files.readAllLines(runDir.resolve("console.txt")).stream()
                .filter(line -> line.startsWith("stomp sessions: ")
                        || line.matches("stomp (server|generator) (memory per held session|CPU per message): .*"))
                .map(line -> line.startsWith("stomp sessions: ")
                        ? line.substring(0, line.indexOf(" held at peak") + 13)
                        : line)
                .toList();
    }

    /** The file's memory figures of these sources, recomputed from its readings, as a cost line says them. */
    static String expected(Path file, ZoneId zone, String... sources) throws Exception {
        return ExpectedCosts.memoryFigures(file, zone).stream()
                .filter(figure -> List.of(sources).stream()
                        .anyMatch(s -> figure.contains("(" + s + ", ") || figure.contains("(" + s + ": ")))
                .collect(Collectors.joining("; "));
    }

    @Test
    void aSourceThatIsNotOneIsAConfigErrorNamingServerFigures() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("bad-source"),
                "connect",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=9",
                        "threads=1",
                        "rampUp=0",
                        "duration=3",
                        "serverFigures=prometheus:http://127.0.0.1:9/metrics"));
        assertThat(run.rows()).singleElement().satisfies(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage"))
                    .contains("Parameter 'serverFigures' has value 'prometheus:http://127.0.0.1:9/metrics'")
                    .contains("expected actuator:");
        });
        assertThat(run.dir().resolve("stomp-server.csv")).doesNotExist();
    }

    @Test
    void aServerThatDoesNotAnswerIsSaidOnceOnTheConsoleAndTheRunGoesOn() throws Exception {
        try (GreetingApp app = GreetingApp.start(false, 0)) {
            PlanRun run = PlanRun.runClean(
                    dir.resolve("unanswered"),
                    "greetings",
                    false,
                    List.of(
                            "host=127.0.0.1",
                            "port=" + app.port(),
                            "messages=2",
                            "holdMillis=500",
                            "replySamples=false", // a hello row per greeting sent
                            "rampUp=0",
                            // port 9 (discard) refuses on loopback: every poll fails
                            "serverFigures=rabbitmq:http://guest:guest@127.0.0.1:9,pid:"
                                    + ProcessHandle.current().pid(),
                            "serverFiguresMillis=100"));
            assertThat(run.count("hello")).isEqualTo(4);
            List<String> said = Files.readAllLines(run.dir().resolve("console.txt")).stream()
                    .filter(line -> line.contains("server figures:"))
                    .toList();
            assertThat(said)
                    .singleElement()
                    .asString()
                    .contains("rabbitmq:http://127.0.0.1:9 cannot be read")
                    .doesNotContain("guest");
            assertThat(figureRows(run.dir().resolve("stomp-server.csv")))
                    .filteredOn(r -> !r.get("source").equals("generator"))
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.get("source")).isEqualTo("pid"));
            assertThat(costLines(run.dir()))
                    .as("a source that never answered gives no figure, and is not named")
                    .filteredOn(line -> line.startsWith("stomp server "))
                    .allSatisfy(line -> assertThat(line).doesNotContain("rabbitmq"));
        }
    }

    /** The server-figures file's rows by column, each checked to have the header's four fields. */
    private static List<Map<String, String>> figureRows(Path file) throws Exception {
        List<List<String>> records = PlanRun.parseCsv(Files.readString(file, StandardCharsets.UTF_8));
        assertThat(records.get(0)).containsExactly("epoch_ms", "source", "metric", "value");
        return records.subList(1, records.size()).stream()
                .map(record -> {
                    assertThat(record).as("fields of %s", record).hasSize(4);
                    return Map.of(
                            "epoch_ms",
                            record.get(0),
                            "source",
                            record.get(1),
                            "metric",
                            record.get(2),
                            "value",
                            record.get(3));
                })
                .toList();
    }

    private static List<Double> values(List<Map<String, String>> rows, String source, String metric) {
        return rows.stream()
                .filter(r -> r.get("source").equals(source) && r.get("metric").equals(metric))
                .map(r -> Double.parseDouble(r.get("value")))
                .toList();
    }
}
