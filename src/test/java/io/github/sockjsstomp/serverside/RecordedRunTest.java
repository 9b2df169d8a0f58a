package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One real run's files, kept in analysis/tests/java_run/ for both sides: greetings.jmx's 200 users (2 greetings each)
 * against Spring's greeting app, polling its actuator and its pid every 250 ms, on this project's shared 2-core
 * machine (UTC): its stomp-server.csv, and the cost lines its console said at the end (console.txt). Fed to {@link
 * RunCosts} row by row, as the poller fed it, the file gives the lines the run said; the analysis tool's
 * test_session_costs.py reads the same two files and must say the same lines.
 */
class RecordedRunTest {

    private static final Path RUN =
            Path.of(System.getProperty("project.root", ".")).resolve("analysis/tests/java_run");

    @Test
    void theRecordedFileGivesTheLinesItsRunSaid() throws Exception {
        RunCosts costs = new RunCosts();
        List<String> rows = Files.readAllLines(RUN.resolve("stomp-server.csv"));
        assertThat(rows.get(0)).isEqualTo(ServerFiguresLog.HEADER);
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            costs.add(Long.parseLong(f[0]), f[1], List.of(new Figure(f[2], Double.parseDouble(f[3]))));
        }
        assertThat(costs.lines(ZoneOffset.UTC))
                .containsExactlyElementsOf(Files.readAllLines(RUN.resolve("console.txt")));
    }
}
