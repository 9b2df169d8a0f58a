package io.github.sockjsstomp.properties;

import static io.github.sockjsstomp.properties.PlanVocabulary.JVM_WIDE_PREFIX;

import io.github.sockjsstomp.client.user.ReconnectBackoff;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import java.util.random.RandomGenerator;
import org.apache.jmeter.util.JMeterUtils;

/** The JVM-wide client settings, from JMeter properties, so one -J on the command line sizes a whole run. */
public final class ClientProperties {

    static final String RECONNECT_MIN_MILLIS = "reconnectMinMillis";
    static final String RECONNECT_MAX_MILLIS = "reconnectMaxMillis";
    static final String WARM_UP = "warmUp";

    private ClientProperties() {}

    /** The shared clients' settings; the reconnect delays are checked here too, so a bad one is a ConfigError. */
    public static ClientSettings read(Problems params) {
        ClientSettings defaults = ClientSettings.defaults();
        int connectThreads = property(params, "connectThreads", defaults.connectThreads(), 1);
        int heartbeatThreads = property(params, "heartbeatThreads", defaults.heartbeatThreads(), 1);
        int maxTextChars = property(params, "maxTextMessageChars", defaults.maxTextMessageChars(), 1);
        int maxMessageBytes = property(params, "maxMessageBytes", defaults.maxMessageBytes(), 1);
        int sendTimeLimit = property(params, "sendTimeLimitMillis", defaults.sendTimeLimitMillis(), 1);
        int ioBuffer = property(params, "ioBufferBytes", defaults.ioBufferBytes(), 1);
        int ioThreads = property(params, "ioThreads", defaults.ioThreads(), 0);
        reconnectBackoff(params);
        if (params.hasErrors()) {
            return defaults;
        }
        return new ClientSettings(
                connectThreads, heartbeatThreads, maxTextChars, maxMessageBytes, sendTimeLimit, ioBuffer, ioThreads);
    }

    /**
     * The reconnect delays of every virtual user ({@code sockjsstomp.reconnectMinMillis}, 1000, and
     * {@code sockjsstomp.reconnectMaxMillis}, 30000). Problems go to {@code params}; with none to tell (null),
     * a bad value gives the defaults: it was said by the {@link #read} that came first.
     */
    public static ReconnectBackoff reconnectBackoff(Problems params) {
        Problems problems = params != null ? params : new Unsaid();
        int min = property(problems, RECONNECT_MIN_MILLIS, (int) ReconnectBackoff.DEFAULT_MIN_MILLIS, 1);
        int max = property(problems, RECONNECT_MAX_MILLIS, (int) ReconnectBackoff.DEFAULT_MAX_MILLIS, 1);
        if (problems.hasErrors()) {
            return ReconnectBackoff.defaults();
        }
        if (max < min) {
            problems.problem("JMeter property '" + JVM_WIDE_PREFIX + RECONNECT_MAX_MILLIS + "' has value '" + max
                    + "': expected at least " + JVM_WIDE_PREFIX + RECONNECT_MIN_MILLIS + " (" + min + ")");
            return ReconnectBackoff.defaults();
        }
        return new ReconnectBackoff(min, max, RandomGenerator.getDefault());
    }

    /**
     * Whether the generator warms its own code before the first timed message ({@code sockjsstomp.warmUp},
     * default true; see {@link io.github.sockjsstomp.warmup.WarmUp}).
     */
    public static boolean warmUp(Problems params) {
        String property = JVM_WIDE_PREFIX + WARM_UP;
        String value = JMeterUtils.getJMeterProperties() == null
                ? null
                : JMeterUtils.getJMeterProperties().getProperty(property);
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("true")) {
            return true;
        }
        if (value.trim().equalsIgnoreCase("false")) {
            return false;
        }
        params.problem("JMeter property '" + property + "' has value '" + value + "': expected true or false");
        return true;
    }

    private static int property(Problems params, String name, int defaultValue, int least) {
        String property = JVM_WIDE_PREFIX + name;
        String value = JMeterUtils.getJMeterProperties() == null
                ? null
                : JMeterUtils.getJMeterProperties().getProperty(property);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= least) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        params.problem("JMeter property '" + property + "' has value '" + value + "': expected "
                + (least == 0 ? "a whole number, 0 or more" : "a positive whole number"));
        return defaultValue;
    }

    /** Problems no one says: a later check's, whose values the first check said already. */
    private static final class Unsaid implements Problems {

        private boolean any;

        @Override
        public void problem(String text) {
            any = true;
        }

        @Override
        public boolean hasErrors() {
            return any;
        }
    }
}
