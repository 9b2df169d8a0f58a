package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost lines a server-figures file should give, worked out again from its rows by the rule of
 * docs/server-figures.md, apart from {@link RunCosts}: each reading's held sessions are the generator's row before
 * it; the baseline is the last reading before the first session, else the first; the peak the first reading at the
 * most held; a figure without a peak above its baseline says why.
 */
public final class ExpectedCosts {

    private record Row(long epochMillis, String source, String metric, double value) {}

    /** A reading: its row's place in the file, and the sessions held (or messages sent) at the generator's row before it. */
    private record Read(int row, long epochMillis, double value, long held) {}

    private ExpectedCosts() {}

    /**
     * The per-session figures of the memory series of {@code file}: "118 KB RSS (pid, 312 MB at ...)", or "no RSS
     * (pid: why)".
     */
    public static List<String> memoryFigures(Path file, ZoneId zone) throws IOException {
        List<Row> rows = rows(file);
        Map<String, List<Read>> series = new LinkedHashMap<>();
        long held = -1;
        int firstSession = Integer.MAX_VALUE;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (row.source().equals("generator") && row.metric().equals("sessions_held")) {
                held = (long) row.value();
                firstSession = held > 0 ? Math.min(firstSession, i) : firstSession;
            } else if (names(row.metric()) != null && held >= 0) {
                series.computeIfAbsent(row.source() + " " + row.metric(), k -> new ArrayList<>())
                        .add(new Read(i, row.epochMillis(), row.value(), held));
            }
        }
        List<String> said = new ArrayList<>();
        for (Map.Entry<String, List<Read>> entry : series.entrySet()) {
            String source = entry.getKey().split(" ")[0];
            String metric = entry.getKey().split(" ")[1];
            List<Read> reads = entry.getValue();
            Read baseline = reads.get(0);
            for (Read read : reads) {
                if (read.row() < firstSession) {
                    baseline = read;
                }
            }
            long most = reads.stream().mapToLong(Read::held).max().orElse(0);
            Read peak = reads.stream()
                    .filter(read -> read.held() == most)
                    .findFirst()
                    .orElseThrow();
            if (most == 0) {
                said.add("no " + names(metric) + " (" + source + ": no reading while a session was held)");
                continue;
            }
            if (peak.held() <= baseline.held()) {
                said.add("no " + names(metric) + " (" + source + ": no more sessions held at any reading than at its"
                        + " first (" + CostWords.count(baseline.held()) + "))");
                continue;
            }
            double perSession = (peak.value() - baseline.value()) / (peak.held() - baseline.held());
            said.add(CostWords.bytes(perSession) + " " + names(metric) + " (" + source + ", "
                    + CostWords.bytes(baseline.value()) + " at " + CostWords.time(baseline.epochMillis(), zone)
                    + " with " + CostWords.count(baseline.held()) + " held to " + CostWords.bytes(peak.value())
                    + " at " + CostWords.time(peak.epochMillis(), zone) + " with " + CostWords.count(peak.held())
                    + " held)");
        }
        return said;
    }

    /**
     * The CPU per message of each source with CPU times in {@code file}, where messages were sent between its
     * readings: "38.2 us (pid, 1.20 s of CPU from ... to ..., 31,400 messages sent)". From the last reading before
     * the first message to the first at the most sent.
     */
    public static List<String> cpuFigures(Path file, ZoneId zone) throws IOException {
        List<Row> rows = rows(file);
        Map<String, List<Read>> series = new LinkedHashMap<>();
        long sent = -1;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (row.source().equals("generator") && row.metric().equals("messages_sent")) {
                sent = (long) row.value();
            } else if (row.metric().equals("cpu_seconds") && sent >= 0) {
                series.computeIfAbsent(row.source(), k -> new ArrayList<>())
                        .add(new Read(i, row.epochMillis(), row.value(), sent));
            }
        }
        List<String> said = new ArrayList<>();
        series.forEach((source, reads) -> {
            Read start = reads.get(0);
            Read end = reads.get(0);
            for (Read read : reads) {
                start = read.held() == 0 ? read : start;
                end = read.held() > end.held() ? read : end;
            }
            if (end.held() > start.held()) {
                said.add(CostWords.fixed((end.value() - start.value()) / (end.held() - start.held()) * 1e6, 1)
                        + " us (" + source + ", " + CostWords.fixed(end.value() - start.value(), 2) + " s of CPU from "
                        + CostWords.time(start.epochMillis(), zone) + " to " + CostWords.time(end.epochMillis(), zone)
                        + ", " + CostWords.count(end.held() - start.held()) + " messages sent)");
            }
        });
        return said;
    }

    private static String names(String metric) {
        return switch (metric) {
            case "rss_bytes" -> "RSS";
            case "heap_used_bytes" -> "heap";
            case "broker_memory_bytes" -> "node memory";
            default -> null;
        };
    }

    private static List<Row> rows(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            rows.add(new Row(Long.parseLong(f[0]), f[1], f[2], Double.parseDouble(f[3])));
        }
        return rows;
    }
}
