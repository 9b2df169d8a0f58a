package io.github.sockjsstomp.samples;

import java.lang.reflect.Field;
import java.nio.file.Path;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * Which JMeter engine runs this test: {@code local} for a plain run, else the name the controller gave the
 * remote engine in {@code -R host:port}. Two engines must never write the same timing log, even on one host
 * or a shared disk, so a remote engine's timing log gets its name as a suffix.
 */
public final class EngineName {

    static final String LOCAL = "local";

    private EngineName() {}

    /** This thread's engine: a remote engine's name as the controller knows it, or {@value #LOCAL}. */
    public static String current() {
        StandardJMeterEngine engine = JMeterContextService.getContext().getEngine();
        if (engine == null) {
            return LOCAL;
        }
        try {
            // JMeter keeps the name a remote engine was started under only in this field.
            Field host = StandardJMeterEngine.class.getDeclaredField("host");
            host.setAccessible(true);
            Object name = host.get(engine);
            return name == null || name.toString().isBlank() ? LOCAL : name.toString();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return LOCAL;
        }
    }

    /** The engine's name as the timing log writes it, in its file name and its engine column: host_1099. */
    public static String fileSafe(String engine) {
        return engine.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** {@code dir/stomp-timing.csv} on engine {@code host:1099} is {@code dir/stomp-timing-host_1099.csv}. */
    public static Path timingLogFor(Path configured, String engine) {
        if (LOCAL.equals(engine)) {
            return configured;
        }
        String file = configured.getFileName().toString();
        int dot = file.lastIndexOf('.');
        String suffix = "-" + fileSafe(engine);
        String named = dot > 0 ? file.substring(0, dot) + suffix + file.substring(dot) : file + suffix;
        return configured.resolveSibling(named);
    }
}
