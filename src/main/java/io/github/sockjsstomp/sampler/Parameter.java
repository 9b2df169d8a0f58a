package io.github.sockjsstomp.sampler;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One parameter of a sampler, written once: its name (what users see first in JMeter's Java Request panel),
 * its typed default, its meaning, and how a value is read. JMeter's {@code JavaTest} keeps one constant per
 * parameter in the same way; the panel's default text is made from the typed default, never written twice.
 *
 * @param <T> what the value is read as
 */
final class Parameter<T> {

    /** Reads a value that is not blank; an IllegalArgumentException says what is wrong with it. */
    @FunctionalInterface
    interface Parser<T> {
        T parse(String value);
    }

    /** The whole numbers a parameter accepts: from {@code min} to {@code max}, both included. */
    record WholeRange(long min, long max) {
        boolean contains(long value) {
            return value >= min && value <= max;
        }
    }

    /** The decimal numbers a parameter accepts: from {@code min} to {@code max}, both included. */
    record DecimalRange(double min, double max) {
        boolean contains(double value) {
            return value >= min && value <= max;
        }
    }

    static WholeRange range(long min, long max) {
        return new WholeRange(min, max);
    }

    static DecimalRange range(double min, double max) {
        return new DecimalRange(min, max);
    }

    final String name;
    final T defaultValue;
    final String defaultText;
    final String description;
    /** Whether a blank value means the default (numbers); otherwise a blank is parsed like any value. */
    final boolean blankIsDefault;

    final Parser<T> parser;

    private Parameter(
            String name,
            T defaultValue,
            String defaultText,
            String description,
            boolean blankIsDefault,
            Parser<T> parser) {
        this.name = name;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.description = description;
        this.blankIsDefault = blankIsDefault;
        this.parser = parser;
    }

    /** A whole number in {@code range}; blank means the default. */
    static Parameter<Long> whole(String name, long defaultValue, WholeRange range, String description) {
        Parser<Long> parser = inRange(Long::parseLong, range::contains, "a whole number", range.min(), range.max());
        return new Parameter<>(name, defaultValue, Long.toString(defaultValue), description, true, parser);
    }

    /** A decimal number in {@code range}; blank means the default. */
    static Parameter<Double> decimal(String name, double defaultValue, DecimalRange range, String description) {
        String text = defaultValue == Math.rint(defaultValue)
                ? Long.toString((long) defaultValue)
                : Double.toString(defaultValue);
        Parser<Double> parser = inRange(Double::parseDouble, range::contains, "a number", range.min(), range.max());
        return new Parameter<>(name, defaultValue, text, description, true, parser);
    }

    /** Reads a number that {@code accepts}; the error names what was expected, from {@code min} to {@code max}. */
    private static <N extends Number> Parser<N> inRange(
            Function<String, N> parse, Predicate<N> accepts, String expected, N min, N max) {
        return value -> {
            try {
                N parsed = parse.apply(value.trim());
                if (accepts.test(parsed)) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // the same message below
            }
            throw new IllegalArgumentException("expected " + expected + " from " + min + " to " + max);
        };
    }

    /** Text that must not be blank, trimmed. */
    static Parameter<String> required(String name, String defaultValue, String description) {
        return new Parameter<>(name, defaultValue, defaultValue, description, false, value -> {
            if (value.isBlank()) {
                throw new IllegalArgumentException("it is empty; it is required");
            }
            return value.trim();
        });
    }

    /**
     * Text whose useful value may be empty; {@value ParameterReader#NONE} means empty, since JMeter drops a
     * {@code -J} property whose value is empty.
     */
    static Parameter<String> optional(String name, String defaultValue, String description) {
        return new Parameter<>(name, defaultValue, defaultValue, description, false, value -> value);
    }

    /** Text that may be empty ({@value ParameterReader#NONE}), read into a value by {@code parser}. */
    static <T> Parameter<T> parsed(String name, String defaultText, String description, Function<String, T> parser) {
        return new Parameter<>(name, parser.apply(defaultText), defaultText, description, false, parser::apply);
    }

    @Override
    public String toString() {
        return name + "=" + defaultText;
    }
}
