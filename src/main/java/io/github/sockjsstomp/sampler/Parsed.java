package io.github.sockjsstomp.sampler;

import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;

/**
 * A parameter read on every sample (JMeter functions and CSV data in it vary per message), parsed again only
 * when its text changed: a constant destination or payload costs one string comparison per message.
 */
final class Parsed<T> {

    private final Parameter<T> parameter;
    private String source;
    private T value;

    Parsed(Parameter<T> parameter) {
        this.parameter = parameter;
    }

    /** Checks the value setupTest sees, so a bad constant is a ConfigError before the first message. */
    void check(ParameterReader params) {
        params.read(parameter);
    }

    /**
     * This sample's value.
     *
     * @throws IllegalArgumentException naming the parameter and the value, when the text cannot be read
     */
    T of(JavaSamplerContext context) {
        String text = context.getParameter(parameter.name, parameter.defaultText);
        String current = text == null ? "" : text;
        if (!current.equals(source)) {
            try {
                value = parameter.parser.parse(ParameterReader.orEmpty(current));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        ParameterReader.describe(parameter.name, current, e.getMessage()), e);
            }
            source = current;
        }
        return value;
    }
}
