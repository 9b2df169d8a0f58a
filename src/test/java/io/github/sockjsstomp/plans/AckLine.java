package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The consumers' acknowledgements as a run's end writes them to jmeter.log: {@code stomp acks: delivered=20
 * acked=15 (15 ACK frames) nacked=5 unacked=0 (max 3, at most 2 at one subscription)}, and {@code left
 * unacknowledged at a session's end=N} when there were any.
 */
record AckLine(
        long delivered,
        long acked,
        long ackFrames,
        long nacked,
        long unacked,
        long maxUnacked,
        long maxAtOneSubscription,
        long abandoned) {

    private static final Pattern LINE = Pattern.compile("stomp acks: delivered=(\\d+) acked=(\\d+) \\((\\d+) ACK "
            + "frames\\) nacked=(\\d+) unacked=(-?\\d+) \\(max (\\d+), at most (\\d+) at one "
            + "subscription\\)(?: left unacknowledged at a session's "
            + "end=(\\d+))?");

    /** The run's end line: the last one in jmeter.log (the live summary writes the line every interval before it). */
    static AckLine of(PlanRun run) throws IOException {
        String log = Files.readString(run.dir().resolve("jmeter.log"), StandardCharsets.UTF_8);
        Matcher line = LINE.matcher(log);
        assertThat(line.find()).as("a 'stomp acks:' line in %s", run.dir()).isTrue();
        int last = line.start();
        while (line.find()) {
            last = line.start();
        }
        line.find(last);
        return new AckLine(
                Long.parseLong(line.group(1)),
                Long.parseLong(line.group(2)),
                Long.parseLong(line.group(3)),
                Long.parseLong(line.group(4)),
                Long.parseLong(line.group(5)),
                Long.parseLong(line.group(6)),
                Long.parseLong(line.group(7)),
                line.group(8) == null ? 0 : Long.parseLong(line.group(8)));
    }

    /**
     * The console's {@code stomp acks:} lines after the live summary's last lines (those its end writes), where the
     * run's end line is.
     */
    static List<String> atTheEnd(PlanRun run) throws IOException {
        List<String> console = Files.readAllLines(run.dir().resolve("console.txt"), StandardCharsets.UTF_8);
        int lastSummary = -1;
        for (int i = 0; i < console.size(); i++) {
            if (console.get(i).startsWith("stomp replies =")) {
                lastSummary = i;
            }
        }
        assertThat(lastSummary)
                .as("the live summary's lines on the console of %s", run.dir())
                .isNotNegative();
        return console.subList(lastSummary + 1, console.size()).stream()
                .filter(line -> line.startsWith("stomp acks:"))
                .toList();
    }
}
