package io.github.sockjsstomp.properties;

/**
 * Where a check of the JMeter properties puts what must stop the test. A sampler's parameter reader is one, so that
 * a bad property and a bad parameter are said together, as one ConfigError; the checks here need no more of it,
 * which keeps this room from importing the samplers' parameters.
 */
public interface Problems {

    /** A problem that stops the test, in words that name the property and its value. */
    void problem(String text);

    /** Whether any problem was put here so far. */
    boolean hasErrors();
}
