package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real runs' files, kept in analysis/tests/java_runs/ for both sides, each its stomp-server.csv and the cost lines its
 * console said at the end (console.txt), on this project's shared 2-core machine (UTC), against Spring's greeting app
 * (started alone, -Xmx512m), polling its actuator and its pid: {@code greetings}, greetings.jmx's 200 users sending 2
 * greetings each (every 250 ms; the machine so loaded that connects timed out and were made again; a plugin that
 * offered no compression yet), and {@code connect} and {@code connect-off}, connect.jmx's 1,000 users on 2 threads
 * against the app just started (every 1000 ms, the default), compression offered as browsers offer it and off. Fed
 * to {@link RunCosts} row by row, as the poller fed it, each file gives the lines its run said; the analysis tool's
 * test_session_costs.py reads the same files and must say the same lines, and docs/server-figures.md shows them.
 */
class RecordedRunTest {

    static final Path RUNS = Path.of(System.getProperty("project.root", ".")).resolve("analysis/tests/java_runs");

    @ParameterizedTest
    @ValueSource(strings = {"greetings", "connect", "connect-off"})
    void theRecordedFileGivesTheLinesItsRunSaid(String name) throws Exception {
        Path run = RUNS.resolve(name);
        RunCosts costs = new RunCosts();
        List<String> rows = Files.readAllLines(run.resolve("stomp-server.csv"));
        assertThat(rows.get(0)).isEqualTo(ServerFiguresLog.HEADER);
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            costs.add(Long.parseLong(f[0]), f[1], List.of(new Figure(f[2], Double.parseDouble(f[3]))));
        }
        assertThat(costs.lines(ZoneOffset.UTC))
                .containsExactlyElementsOf(Files.readAllLines(run.resolve("console.txt")));
    }
}
