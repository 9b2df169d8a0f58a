package io.github.sockjsstomp.steps;

import java.util.List;

/**
 * A step's verdict as the steps log writes it: {@code held}, {@code broke} (with whose limit it was:
 * {@code server} or {@code generator}) or {@code unchecked} (no service level given), and the figures that
 * decided it, in words.
 */
public record Verdict(String verdict, String limit, String reason) {

    public static final String HELD = "held";
    public static final String BROKE = "broke";
    public static final String UNCHECKED = "unchecked";
    public static final String SERVER = "server";
    public static final String GENERATOR = "generator";

    public boolean broke() {
        return BROKE.equals(verdict);
    }

    /**
     * The verdict of a step: broke when the service level is not held; then the generator's limit if it could
     * not hold its pace, else the server's. Without a service level the generator is still checked and said in the
     * reason, so an unchecked run shows where it was out of breath.
     */
    public static Verdict of(StepFigures figures, ServiceLevel level, GeneratorCheck check, int cores) {
        List<String> generator = check.limits(figures, cores);
        String generatorWords = generator.isEmpty() ? "" : "generator: " + String.join(", ", generator);
        if (level.isEmpty()) {
            return new Verdict(UNCHECKED, "", generatorWords);
        }
        List<String> breaches = level.breaches(figures);
        if (breaches.isEmpty()) {
            return new Verdict(HELD, "", generatorWords);
        }
        String reason = String.join("; ", breaches);
        return generator.isEmpty()
                ? new Verdict(BROKE, SERVER, reason)
                : new Verdict(BROKE, GENERATOR, reason + "; " + generatorWords);
    }
}
