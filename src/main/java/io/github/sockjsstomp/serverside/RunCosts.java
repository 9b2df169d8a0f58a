package io.github.sockjsstomp.serverside;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run's sessions and messages cost the server, and the generator, from the rows of the server-figures file
 * in the order they are written: every memory figure per session held ({@link SessionMemory}) and every CPU time per
 * message sent ({@link MessageCpu}), each reading counted by the generator's row of its poll round, written just
 * before it. Fed by the poller's thread, read at the run's end: the analysis tool reads the same rows the same way
 * (analysis/…/session_costs.py), and says the same lines.
 */
final class RunCosts {

    /** The memory figures, in the words of the lines. */
    private static final Map<String, String> MEMORY = Map.of(
            Figure.RSS_BYTES, "RSS",
            Figure.HEAP_USED_BYTES, "heap",
            Figure.BROKER_MEMORY_BYTES, "node memory");

    private final Map<List<String>, SessionMemory> memory = new LinkedHashMap<>();
    private final Map<String, MessageCpu> cpu = new LinkedHashMap<>();
    /** The server's sources that answered, in the order they first did. */
    private final Set<String> answered = new LinkedHashSet<>();

    private long held = -1;
    private long sent = -1;
    private boolean sessionsHeld;
    private boolean messagesSent;

    /** One source's figures of one poll, as the file has them. */
    synchronized void add(long epochMillis, String source, List<Figure> figures) {
        boolean generator = source.equals(SourceSpec.GENERATOR);
        if (!generator && !figures.isEmpty()) {
            answered.add(source);
        }
        for (Figure figure : figures) {
            String metric = figure.metric();
            if (!Double.isFinite(figure.value())) {
                continue; // written as an empty value, which the analysis tool skips too
            }
            if (generator && metric.equals(Figure.SESSIONS_HELD)) {
                held = (long) figure.value();
                sessionsHeld |= held > 0;
            } else if (generator && metric.equals(Figure.MESSAGES_SENT)) {
                sent = (long) figure.value();
                messagesSent |= sent > 0;
            } else if (MEMORY.containsKey(metric) && held >= 0) {
                memory.computeIfAbsent(List.of(source, metric), k -> new SessionMemory())
                        .add(new Reading(epochMillis, figure.value(), held), sessionsHeld);
            } else if (metric.equals(Figure.CPU_SECONDS) && sent >= 0) {
                cpu.computeIfAbsent(source, k -> new MessageCpu()).add(new Reading(epochMillis, figure.value(), sent));
            }
        }
    }

    /**
     * The lines said at the run's end: the server's memory per session held, the generator's, and the server's CPU
     * per message where messages were sent; times of day in {@code zone}.
     */
    synchronized List<String> lines(ZoneId zone) {
        List<String> lines = new ArrayList<>();
        lines.add("stomp server memory per held session: " + memoryWords(false, zone));
        lines.add("stomp generator memory per held session: " + memoryWords(true, zone));
        if (messagesSent) {
            lines.add("stomp server CPU per message: " + cpuWords(zone));
        }
        return lines;
    }

    private String memoryWords(boolean generator, ZoneId zone) {
        List<String> said = new ArrayList<>();
        memory.forEach((key, figure) -> {
            String source = key.get(0);
            if (source.equals(SourceSpec.GENERATOR) == generator) {
                said.add(memoryWords(source, MEMORY.get(key.get(1)), figure, zone));
            }
        });
        if (said.isEmpty()) {
            return generator
                    ? "none (no reading of this JVM's memory came)"
                    : answered.isEmpty() ? "none (no server source answered)" : "none (no source gave a memory figure)";
        }
        return String.join("; ", said);
    }

    private static String memoryWords(String source, String name, SessionMemory figure, ZoneId zone) {
        if (!figure.hasFigure()) {
            return "no " + name + " (" + source + ": " + figure.none() + ")";
        }
        Reading baseline = figure.baseline();
        Reading peak = figure.peak();
        return CostWords.bytes(figure.perSession()) + " " + name + " (" + source + ", "
                + CostWords.bytes(baseline.value()) + " at " + CostWords.time(baseline.epochMillis(), zone) + " with "
                + CostWords.count(baseline.count()) + " held to " + CostWords.bytes(peak.value()) + " at "
                + CostWords.time(peak.epochMillis(), zone) + " with " + CostWords.count(peak.count()) + " held)";
    }

    private String cpuWords(ZoneId zone) {
        if (answered.isEmpty()) {
            return "none (no server source answered)";
        }
        List<String> said = new ArrayList<>();
        for (String source : answered) {
            MessageCpu figure = cpu.get(source);
            if (figure == null) {
                said.add("none from " + source + " ("
                        + (source.equals(SourceSpec.RABBITMQ)
                                ? "RabbitMQ's management API has no CPU figure"
                                : "it gave no CPU time; an actuator gives it from Spring Boot 3.3")
                        + ")");
            } else if (!figure.hasFigure()) {
                said.add("none from " + source + " (no message was sent between its readings)");
            } else {
                Reading start = figure.start();
                Reading end = figure.end();
                said.add(CostWords.fixed(figure.perMessage() * 1e6, 1) + " us (" + source + ", "
                        + CostWords.fixed(end.value() - start.value(), 2) + " s of CPU from "
                        + CostWords.time(start.epochMillis(), zone) + " to " + CostWords.time(end.epochMillis(), zone)
                        + ", " + CostWords.count(end.count() - start.count()) + " messages sent)");
            }
        }
        return String.join("; ", said);
    }
}
