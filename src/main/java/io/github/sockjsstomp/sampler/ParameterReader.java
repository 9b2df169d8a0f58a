package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.properties.PlanVocabulary;
import io.github.sockjsstomp.properties.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
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

    /**
     * An argument under a name the plans' vocabulary renamed ({@link PlanVocabulary#RENAMED}) to one of
     * {@code parameters}, as a plan saved before the rename has it, is refused naming the new name: the sampler
     * would otherwise run with the new parameter's default in silence. A renamed name that is still one of
     * {@code parameters} ({@code sessionsPerThread} of the session sampler) is read as before.
     */
    void refuseRenamed(List<Parameter<?>> parameters) {
        if (context == null) {
            return;
        }
        Set<String> names = parameters.stream().map(parameter -> parameter.name).collect(Collectors.toSet());
        for (Map.Entry<String, String> renamed : new TreeMap<>(PlanVocabulary.RENAMED).entrySet()) {
            String former = renamed.getKey();
            if (names.contains(renamed.getValue()) && !names.contains(former) && context.containsParameter(former)) {
                error(
                        former,
                        context.getParameter(former),
                        "renamed: " + PlanVocabulary.RENAMED_BECAUSE.get(former) + "; use " + renamed.getValue());
            }
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
