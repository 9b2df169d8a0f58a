package io.github.sockjsstomp.steps;

import java.util.List;

/**
 * A step's verdict as the steps log writes it: {@code held}, {@code broke} (with whose limit it was:
 * {@code server}, {@code generator}, or {@code machine}: a machine so busy that server and generator shared its
 * limit) or {@code unchecked} (no service level given), and the figures that
 * decided it, in words.
 */
public record Verdict(String verdict, String limit, String reason) {

    public static final String HELD = "held";
    public static final String BROKE = "broke";
    public static final String UNCHECKED = "unchecked";
    public static final String SERVER = "server";
    public static final String GENERATOR = "generator";
    public static final String MACHINE = "machine";

    public boolean broke() {
        return BROKE.equals(verdict);
    }

    /**
     * The verdict of a step: broke when the service level is not held, or when the generator could not hold its
     * pace (the offered load never reached the server, so the step cannot be said to have held it); the
     * generator's limit then, else the server's. Without a service level the step is unchecked, and the generator
     * is still said in the reason, so an unchecked run shows where it was out of breath.
     */
    public static Verdict of(StepFigures figures, ServiceLevel level, GeneratorCheck check, int cores) {
        return of(figures, level, check, cores, GeneratorQueues.NONE, GeneratorQueues.NONE);
    }

    /** As {@link #of(StepFigures, ServiceLevel, GeneratorCheck, int)}, with the generator's queues over the hold. */
    public static Verdict of(
            StepFigures figures,
            ServiceLevel level,
            GeneratorCheck check,
            int cores,
            GeneratorQueues start,
            GeneratorQueues end) {
        return of(figures, level, check, cores, cores, start, end);
    }

    /**
     * As {@link #of(StepFigures, ServiceLevel, GeneratorCheck, int, GeneratorQueues, GeneratorQueues)}, and the
     * machine's cores: a step that broke while the whole machine was saturated is the machine's limit (the server
     * and the generator, and whatever else ran, shared it), not the server's alone. The generator's own limit is
     * said first: a generator that could not keep its pace offered less than the step, whoever took its CPU.
     */
    public static Verdict of(
            StepFigures figures,
            ServiceLevel level,
            GeneratorCheck check,
            int cores,
            int machineCores,
            GeneratorQueues start,
            GeneratorQueues end) {
        List<String> generator = check.limits(figures, cores, start, end);
        String generatorWords = generator.isEmpty() ? "" : "generator: " + String.join(", ", generator);
        String machine = check.machineSaturated(figures, cores, machineCores);
        String machineWords = machine == null ? "" : "machine: " + machine;
        if (level.isEmpty()) {
            return new Verdict(UNCHECKED, "", join(generatorWords, machineWords));
        }
        List<String> breaches = level.breaches(figures);
        if (!generator.isEmpty()) {
            String reason = breaches.isEmpty() ? generatorWords : String.join("; ", breaches) + "; " + generatorWords;
            return new Verdict(BROKE, GENERATOR, reason);
        }
        if (breaches.isEmpty()) {
            return new Verdict(HELD, "", "");
        }
        return machine == null
                ? new Verdict(BROKE, SERVER, String.join("; ", breaches))
                : new Verdict(BROKE, MACHINE, String.join("; ", breaches) + "; " + machineWords);
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
    }
}
