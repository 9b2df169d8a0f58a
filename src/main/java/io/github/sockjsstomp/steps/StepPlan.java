package io.github.sockjsstomp.steps;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps of a run: what each offers (this engine's messages per second, or its online users), and when.
 * Step k (from 1) begins at {@code (k - 1) x (ramp + hold)} after the steps' start: for {@code ramp} the offer
 * moves in a straight line from the step before's (0 before the first) to its own, then holds for {@code hold};
 * its figures are counted over the hold. Pure arithmetic on offsets from the start, so every engine given the
 * same start (a common epoch time) has the same boundaries.
 *
 * <p>Written as a list ({@code 1000,2000,4000}), a growth by a factor ({@code 1000..8000*2}: 1000, 2000, 4000,
 * 8000) or by an increment ({@code 1000..5000+1000}).
 */
public final class StepPlan {

    /** The most steps a plan may have: a run of more is a typing mistake, not a test. */
    static final int MAX_STEPS = 1000;

    private static final Pattern GROWTH = Pattern.compile("([^.]+)\\.\\.([^*+]+)([*+])(.+)");

    private final StepKind kind;
    private final double[] offered;
    private final long rampMillis;
    private final long holdMillis;

    public StepPlan(StepKind kind, List<Double> offered, long rampMillis, long holdMillis) {
        if (offered.isEmpty()) {
            throw new IllegalArgumentException("no steps");
        }
        if (rampMillis < 0 || holdMillis <= 0) {
            throw new IllegalArgumentException("ramp " + rampMillis + " ms, hold " + holdMillis + " ms");
        }
        this.kind = kind;
        this.offered = offered.stream().mapToDouble(Double::doubleValue).toArray();
        this.rampMillis = rampMillis;
        this.holdMillis = holdMillis;
    }

    /**
     * Parses the steps' offers; {@link IllegalArgumentException} says what is wrong with them (its message names
     * no parameter: the caller's does).
     */
    public static List<Double> parse(String text, StepKind kind) {
        String trimmed = text.trim().replace(" ", "");
        if (trimmed.isEmpty()) {
            return List.of();
        }
        List<Double> steps = new ArrayList<>();
        Matcher growth = GROWTH.matcher(trimmed);
        if (growth.matches()) {
            double from = number(growth.group(1), kind);
            double to = number(growth.group(2), kind);
            double by = Double.parseDouble(check(growth.group(4)));
            boolean times = growth.group(3).equals("*");
            if (to < from) {
                throw new IllegalArgumentException(
                        "the last step " + format(to) + " is below the first " + format(from));
            }
            if (times && from == 0) {
                throw new IllegalArgumentException(
                        "a factor cannot grow from 0: give an increment (0..40+10) or a list (0,10,20,40)");
            }
            if (times ? !(by > 1) : !(by > 0)) {
                throw new IllegalArgumentException(
                        times
                                ? "a factor must be above 1: " + growth.group(4)
                                : "an increment must be above 0: " + growth.group(4));
            }
            for (double step = from; step <= to * (1 + 1e-9); step = times ? step * by : step + by) {
                steps.add(kind.whole() ? Math.rint(step) : step);
                tooMany(steps);
            }
            return steps;
        }
        double previous = 0;
        for (String part : trimmed.split(",", -1)) {
            double step = number(part, kind);
            if (step <= previous && !steps.isEmpty()) {
                throw new IllegalArgumentException("steps must grow: " + format(step) + " after " + format(previous));
            }
            steps.add(step);
            previous = step;
            tooMany(steps);
        }
        return steps;
    }

    private static void tooMany(List<Double> steps) {
        if (steps.size() > MAX_STEPS) {
            throw new IllegalArgumentException("more than " + MAX_STEPS + " steps");
        }
    }

    private static String check(String number) {
        if (number.isEmpty()) {
            throw new IllegalArgumentException("a number is missing");
        }
        return number;
    }

    private static double number(String text, StepKind kind) {
        double value;
        try {
            value = Double.parseDouble(check(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: '" + text + "'; expected a list (1000,2000,4000), "
                    + "a factor (1000..8000*2) or an increment (1000..5000+1000)");
        }
        if (!(kind.fromZero() ? value >= 0 : value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(
                    (kind.fromZero() ? "a step must be 0 or above: " : "a step must be above 0: ") + text);
        }
        if (kind.whole() && value != Math.rint(value)) {
            throw new IllegalArgumentException("users are whole: " + text);
        }
        return value;
    }

    public StepKind kind() {
        return kind;
    }

    public int count() {
        return offered.length;
    }

    /** What step {@code step} (from 1) offers. */
    public double offered(int step) {
        return offered[step - 1];
    }

    public long rampMillis() {
        return rampMillis;
    }

    public long holdMillis() {
        return holdMillis;
    }

    /** When step {@code step} begins its ramp, after the steps' start. */
    public long rampStartOffset(int step) {
        return (step - 1) * (rampMillis + holdMillis);
    }

    public long holdStartOffset(int step) {
        return rampStartOffset(step) + rampMillis;
    }

    public long endOffset(int step) {
        return holdStartOffset(step) + holdMillis;
    }

    /** How long all the steps take. */
    public long totalMillis() {
        return endOffset(count());
    }

    /** The step under way {@code offsetMillis} after the start: 0 before it, {@code count() + 1} after the last. */
    public int stepAt(long offsetMillis) {
        if (offsetMillis < 0) {
            return 0;
        }
        long step = offsetMillis / (rampMillis + holdMillis) + 1;
        return (int) Math.min(step, count() + 1);
    }

    /** The offer {@code offsetMillis} after the start: 0 before the first step and after the last. */
    public double offeredAt(long offsetMillis) {
        int step = stepAt(offsetMillis);
        if (step < 1 || step > count()) {
            return 0;
        }
        double to = offered(step);
        long intoRamp = offsetMillis - rampStartOffset(step);
        if (intoRamp >= rampMillis) {
            return to;
        }
        double from = step == 1 ? 0 : offered(step - 1);
        return from + (to - from) * intoRamp / rampMillis;
    }

    /** The next offset after {@code offsetMillis} at which the offer changes by a step's boundary. */
    public long nextBoundary(long offsetMillis) {
        if (offsetMillis < 0) {
            return 0;
        }
        int step = stepAt(offsetMillis);
        if (step > count()) {
            return Long.MAX_VALUE;
        }
        long hold = holdStartOffset(step);
        return offsetMillis < hold ? hold : endOffset(step);
    }

    /** An offer as the answer line writes it: {@code 4,000}, {@code 12.5}. */
    public static String format(double value) {
        return value == Math.rint(value) ? String.format("%,d", (long) value) : String.format("%,.1f", value);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (double step : offered) {
            text.append(text.length() == 0 ? "" : ", ").append(format(step));
        }
        return count() + " steps of " + kind.unit + " (" + text + "), each " + rampMillis / 1000.0 + " s ramp + "
                + holdMillis / 1000.0 + " s hold";
    }
}
