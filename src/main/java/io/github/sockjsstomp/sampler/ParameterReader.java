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

    private final JavaSamplerContext context;
    private final List<String> errors = new ArrayList<>();

    ParameterReader(JavaSamplerContext context) {
        this.context = context;
    }

    String string(String name, String defaultValue) {
        String value = context.getParameter(name, defaultValue);
        return value == null ? "" : value;
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

    int integer(String name, int defaultValue, int min, int max) {
        return (int) number(name, defaultValue, min, max);
    }

    /** Parses with a function whose IllegalArgumentException says what is wrong. */
    <T> T parsed(String name, String defaultValue, Function<String, T> parser, T fallback) {
        String value = string(name, defaultValue);
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
