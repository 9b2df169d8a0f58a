package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.properties.Problems;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;

/**
 * Reads a sampler's parameters and collects every problem, each naming the parameter and the value, so a
 * user fixes them all in one go instead of one per run.
 */
final class ParameterReader implements Problems {

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

    /** The parameter's value; its default when the value is bad, and then the problem is kept. */
    <T> T read(Parameter<T> parameter) {
        String raw = context.getParameter(parameter.name, parameter.defaultText);
        String value = orEmpty(raw);
        if (value.isBlank() && parameter.blankIsDefault) {
            return parameter.defaultValue;
        }
        try {
            return parameter.parser.parse(value);
        } catch (IllegalArgumentException e) {
            error(parameter.name, raw == null ? "" : raw, e.getMessage());
            return parameter.defaultValue;
        }
    }

    /** A whole-number parameter as an int (its range keeps it one). */
    int readInt(Parameter<Long> parameter) {
        return Math.toIntExact(read(parameter));
    }

    /** The value, or "" when it is {@value #NONE} (any case, surrounding blanks ignored). */
    static String orEmpty(String value) {
        return value == null || value.strip().equalsIgnoreCase(NONE) ? "" : value;
    }

    void error(String name, String value, String problem) {
        errors.add(describe(name, value, problem));
    }

    @Override
    public void problem(String text) {
        errors.add(text);
    }

    @Override
    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    List<String> errors() {
        return List.copyOf(errors);
    }

    static String describe(String name, String value, String problem) {
        return "Parameter '" + name + "' has value '" + value + "': " + problem;
    }
}
