package io.github.sockjsstomp.sampler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;

/**
 * Reads a sampler's parameters and collects every problem, each naming the parameter and the value, so a
 * user fixes them all in one go instead of one per run.
 */
final class ParameterReader {

    /**
     * Stands for an empty value. JMeter drops a {@code -Jname=} (or {@code -G}) property whose value is empty,
     * so the plan's default comes back; {@code -Jname=none} gets through and means "empty" here.
     */
    static final String NONE = "none";

    private final JavaSamplerContext context;
    private final List<String> errors = new ArrayList<>();

    ParameterReader(JavaSamplerContext context) {
        this.context = context;
    }

    String string(String name, String defaultValue) {
        String value = context.getParameter(name, defaultValue);
        return value == null ? "" : value;
    }

    /** A value whose useful setting may be empty ("skip it", "send none"): {@value #NONE} means empty. */
    String optional(String name, String defaultValue) {
        return orEmpty(string(name, defaultValue));
    }

    /** The value, or "" when it is {@value #NONE} (any case, surrounding blanks ignored). */
    static String orEmpty(String value) {
        return value == null || value.strip().equalsIgnoreCase(NONE) ? "" : value;
    }

    /** A value that must not be blank. */
    String required(String name, String defaultValue) {
        String value = string(name, defaultValue).trim();
        if (value.isEmpty()) {
            errors.add("Parameter '" + name + "' is empty; it is required");
        }
        return value;
    }

    /** A blank value means the default. */
    long number(String name, long defaultValue, long min, long max) {
        String value = string(name, Long.toString(defaultValue)).trim();
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            long parsed = Long.parseLong(value);
            if (parsed < min || parsed > max) {
                errors.add(describe(name, value, "expected a whole number from " + min + " to " + max));
                return defaultValue;
            }
            return parsed;
        } catch (NumberFormatException e) {
            errors.add(describe(name, value, "expected a whole number from " + min + " to " + max));
            return defaultValue;
        }
    }

    /** A blank value means the default. */
    double decimal(String name, double defaultValue, double min, double max) {
        String value = string(name, Double.toString(defaultValue)).trim();
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            double parsed = Double.parseDouble(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        errors.add(describe(name, value, "expected a number from " + min + " to " + max));
        return defaultValue;
    }

    int integer(String name, int defaultValue, int min, int max) {
        return (int) number(name, defaultValue, min, max);
    }

    /** Parses with a function whose IllegalArgumentException says what is wrong. */
    <T> T parsed(String name, String defaultValue, Function<String, T> parser, T fallback) {
        String value = optional(name, defaultValue);
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            errors.add(describe(name, value, e.getMessage()));
            return fallback;
        }
    }

    void error(String name, String value, String problem) {
        errors.add(describe(name, value, problem));
    }

    void problem(String text) {
        errors.add(text);
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    List<String> errors() {
        return List.copyOf(errors);
    }

    static String describe(String name, String value, String problem) {
        return "Parameter '" + name + "' has value '" + value + "': " + problem;
    }
}
