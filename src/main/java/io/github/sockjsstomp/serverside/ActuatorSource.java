package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A Spring Boot app's actuator ({@code management.endpoints.web.exposure.include=metrics}): {@code
 * process.cpu.usage} (the JVM's recent CPU as a fraction of the machine's cores), {@code process.cpu.time} (its CPU
 * time so far, which the CPU per message is the difference of: the usage is a share sampled once a poll, and summing
 * it would guess the CPU between polls), {@code jvm.memory.used} with
 * {@code tag=area:heap}, {@code jvm.gc.pause}'s TOTAL_TIME (seconds, since the JVM started: its difference between
 * two polls is the pause time in between), and the WebSocket/STOMP sessions where the app has a metric for them.
 *
 * <p>Spring Boot has no such metric of its own: Spring's {@code WebSocketMessageBrokerStats} keeps the counts
 * (and logs them every 30 minutes), but neither Spring nor Boot registers them with Micrometer
 * (spring-framework#31604 leaves it to the app). An app that binds a gauge named {@value #SESSIONS_METRIC} (or
 * another name given as {@code ?sessions=name} after the actuator URL) has its sessions read; docs/server-figures.md
 * shows the three lines.
 */
final class ActuatorSource implements FigureSource {

    static final String SESSIONS_METRIC = "websocket.sessions";
    private static final int NOT_FOUND = 404;

    private final SourceSpec spec;
    private final FigureHttp http;
    private final String metricsUrl;
    private final String sessionsMetric;
    /** jvm.gc.pause TOTAL_TIME at the previous poll, in seconds; NaN before the first. */
    private double lastGcSeconds = Double.NaN;

    ActuatorSource(SourceSpec spec, FigureHttp http) {
        this.spec = spec;
        this.http = http;
        String target = spec.target();
        int query = target.indexOf('?');
        String base = query < 0 ? target : target.substring(0, query);
        this.metricsUrl = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/metrics/";
        this.sessionsMetric = query < 0 ? SESSIONS_METRIC : sessionsParameter(target.substring(query + 1));
    }

    private static String sessionsParameter(String query) {
        for (String pair : query.split("&")) {
            if (pair.startsWith("sessions=") && pair.length() > "sessions=".length()) {
                return pair.substring("sessions=".length());
            }
        }
        return SESSIONS_METRIC;
    }

    @Override
    public List<Figure> poll() throws IOException {
        List<Figure> figures = new ArrayList<>();
        OptionalDouble cpu = read("process.cpu.usage", null, "VALUE");
        OptionalDouble heap = read("jvm.memory.used", "area:heap", "VALUE");
        if (cpu.isEmpty() && heap.isEmpty()) {
            throw new IOException("no process.cpu.usage nor jvm.memory.used at " + redacted(metricsUrl)
                    + ": is the metrics endpoint exposed (management.endpoints.web.exposure.include=metrics)?");
        }
        cpu.ifPresent(value -> figures.add(new Figure(Figure.PROCESS_CPU, value)));
        // Micrometer registers it since 1.13 (Spring Boot 3.3): an older app has none
        String cpuTime = body("process.cpu.time", null);
        if (cpuTime != null) {
            ActuatorMetric.seconds(cpuTime, "COUNT")
                    .ifPresent(value -> figures.add(new Figure(Figure.CPU_SECONDS, value)));
        }
        heap.ifPresent(value -> figures.add(new Figure(Figure.HEAP_USED_BYTES, value)));
        // Not found until the first collection: no pause yet.
        double gcSeconds = read("jvm.gc.pause", null, "TOTAL_TIME").orElse(0);
        if (!Double.isNaN(lastGcSeconds)) {
            figures.add(new Figure(Figure.GC_PAUSE_MS, Math.max(0, gcSeconds - lastGcSeconds) * 1000));
        }
        lastGcSeconds = gcSeconds;
        read(sessionsMetric, null, "VALUE").ifPresent(value -> figures.add(new Figure(Figure.SESSIONS, value)));
        return figures;
    }

    /** The metric's statistic; empty when the app has no such metric (404). */
    private OptionalDouble read(String metric, String tag, String statistic) throws IOException {
        String body = body(metric, tag);
        return body == null ? OptionalDouble.empty() : ActuatorMetric.statistic(body, statistic);
    }

    /** The metric's answer; null when the app has no such metric (404). */
    private String body(String metric, String tag) throws IOException {
        String url =
                metricsUrl + metric + (tag == null ? "" : "?tag=" + URLEncoder.encode(tag, StandardCharsets.UTF_8));
        FigureHttp.Answer answer = http.get(url);
        if (answer.status() == NOT_FOUND) {
            return null;
        }
        if (answer.status() != 200) {
            throw new IOException("HTTP " + answer.status() + " from " + redacted(url));
        }
        return answer.body();
    }

    private static String redacted(String url) {
        return url.replaceFirst("//[^/@]*@", "//");
    }

    @Override
    public SourceSpec spec() {
        return spec;
    }
}
