package io.github.sockjsstomp.steps;

import java.util.ArrayList;
import java.util.List;

/**
 * The service level a step must hold over its hold: each limit is optional (null: not checked). Latencies in
 * milliseconds, shares in percent, heart-beat misses a count of sessions; a step breaks when any figure is strictly above its limit.
 */
public record ServiceLevel(
        Double p50Millis,
        Double p99Millis,
        Double p999Millis,
        Double lostPercent,
        Double failedPercent,
        Double connectFailedPercent,
        Double connectP99Millis,
        Double heartbeatMisses) {

    public static final ServiceLevel NONE = new ServiceLevel(null, null, null, null, null, null, null, null);

    /** No limit given: every step is {@code unchecked}. */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** The limits a step's figures exceed, each in words ({@code p99 1240 ms > 500 ms}); empty: it held. */
    public List<String> breaches(StepFigures figures) {
        List<String> said = new ArrayList<>();
        latency(said, "p50", figures.p50Micros(), p50Millis);
        latency(said, "p99", figures.p99Micros(), p99Millis);
        latency(said, "p99.9", figures.p999Micros(), p999Millis);
        if (figures.sent() != null) {
            share(said, "lost", figures.lostPercent(), lostPercent);
            share(said, "failed", figures.failedPercent(), failedPercent);
        }
        if (figures.connects() > 0) {
            share(said, "connects failed", figures.connectFailedPercent(), connectFailedPercent);
        }
        if (connectP99Millis != null
                && figures.connectP99Millis() != null
                && figures.connectP99Millis() > connectP99Millis) {
            said.add("connect p99 " + figures.connectP99Millis() + " ms > " + number(connectP99Millis) + " ms");
        }
        if (heartbeatMisses != null && figures.heartbeatMisses() > heartbeatMisses) {
            said.add(heartbeatMissesText(figures.heartbeatMisses()) + " > " + number(heartbeatMisses));
        }
        return said;
    }

    private static void latency(List<String> said, String name, Long micros, Double limitMillis) {
        if (limitMillis != null && micros != null && micros / 1000.0 > limitMillis) {
            said.add(name + " " + Math.round(micros / 1000.0) + " ms > " + number(limitMillis) + " ms");
        }
    }

    private static void share(List<String> said, String name, double percent, Double limit) {
        if (limit != null && percent > limit) {
            said.add(name + " " + percentText(percent) + "% > " + number(limit) + "%");
        }
    }

    /** {@code 12 sessions lost to missed heart-beats}. */
    static String heartbeatMissesText(long sessions) {
        return sessions + (sessions == 1 ? " session" : " sessions") + " lost to missed heart-beats";
    }

    /** A percentage as the reasons say it: one decimal, none when whole. */
    static String percentText(double percent) {
        double rounded = Math.round(percent * 10) / 10.0;
        return rounded == Math.rint(rounded) ? Long.toString((long) rounded) : Double.toString(rounded);
    }

    static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "no service level";
        }
        List<String> limits = new ArrayList<>();
        add(limits, "p50", p50Millis, " ms");
        add(limits, "p99", p99Millis, " ms");
        add(limits, "p99.9", p999Millis, " ms");
        add(limits, "lost", lostPercent, "%");
        add(limits, "failed", failedPercent, "%");
        add(limits, "connects failed", connectFailedPercent, "%");
        add(limits, "connect p99", connectP99Millis, " ms");
        add(limits, "sessions lost to missed heart-beats", heartbeatMisses, "");
        return "service level: " + String.join(", ", limits);
    }

    private static void add(List<String> limits, String name, Double limit, String unit) {
        if (limit != null) {
            limits.add(name + " <= " + number(limit) + unit);
        }
    }
}
