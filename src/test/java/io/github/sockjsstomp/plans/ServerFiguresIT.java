package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
                    .containsOnlyKeys("actuator", "pid")
                    .containsEntry("actuator", Set.of("process_cpu", "heap_used_bytes", "gc_pause_ms", "sessions"))
                    .containsEntry("pid", Set.of("process_cpu", "rss_bytes", "threads"));

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
        }
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
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.get("source")).isEqualTo("pid"));
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
