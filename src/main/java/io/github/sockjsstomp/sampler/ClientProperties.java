package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.PROPERTY_PREFIX;

import io.github.sockjsstomp.client.ClientSettings;
import org.apache.jmeter.util.JMeterUtils;

/** The JVM-wide client settings, from JMeter properties, so one -J on the command line sizes a whole run. */
final class ClientProperties {

    private ClientProperties() {
    }

    static ClientSettings read(ParameterReader params) {
        ClientSettings defaults = ClientSettings.defaults();
        int connectThreads = property(params, "connectThreads", defaults.connectThreads(), 1);
        int heartbeatThreads = property(params, "heartbeatThreads", defaults.heartbeatThreads(), 1);
        int maxTextChars = property(params, "maxTextMessageChars", defaults.maxTextMessageChars(), 1);
        int maxMessageBytes = property(params, "maxMessageBytes", defaults.maxMessageBytes(), 1);
        int sendTimeLimit = property(params, "sendTimeLimitMillis", defaults.sendTimeLimitMillis(), 1);
        int ioBuffer = property(params, "ioBufferBytes", defaults.ioBufferBytes(), 1);
        int ioThreads = property(params, "ioThreads", defaults.ioThreads(), 0);
        if (params.hasErrors()) {
            return defaults;
        }
        return new ClientSettings(connectThreads, heartbeatThreads, maxTextChars, maxMessageBytes, sendTimeLimit,
                ioBuffer, ioThreads);
    }

    private static int property(ParameterReader params, String name, int defaultValue, int least) {
        String property = PROPERTY_PREFIX + name;
        String value = JMeterUtils.getJMeterProperties() == null ? null
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
}
