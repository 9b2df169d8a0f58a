package io.github.sockjsstomp.apps;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the Boot apps of this package the same way: 127.0.0.1, a random port, quiet. */
final class BootApps {

    static final String HOST = "127.0.0.1";

    /** Spring Boot's servlet security auto-configurations, for the apps that are not secured. */
    static final String SECURITY_AUTO_CONFIGURATIONS = String.join(
            ",",
            "org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration",
            "org.springframework.boot.autoconfigure.security.servlet.SecurityFilterAutoConfiguration",
            "org.springframework.boot.autoconfigure.security.servlet.UserDetailsServiceAutoConfiguration",
            // The actuator's (on the test class path for the server figures' test) needs the ones above.
            "org.springframework.boot.actuate.autoconfigure.security.servlet.ManagementWebSecurityAutoConfiguration");

    /**
     * Auto-configurations that JMeter's jars on the test class path break (its httpclient5 is older than
     * Boot's), none of which these apps use.
     */
    private static final String CLASS_PATH_MISFITS = String.join(
            ",",
            "org.springframework.boot.autoconfigure.http.client.HttpClientAutoConfiguration",
            "org.springframework.boot.autoconfigure.web.client.RestTemplateAutoConfiguration",
            "org.springframework.boot.autoconfigure.web.client.RestClientAutoConfiguration");

    private static final String EXCLUDE = "spring.autoconfigure.exclude";
    private static final String LOGGING_SYSTEM = "org.springframework.boot.logging.LoggingSystem";

    private BootApps() {}

    static ConfigurableApplicationContext start(Class<?> application, String name, Map<String, String> properties) {
        // Boot would otherwise take over JMeter's log4j configuration for the whole test JVM.
        if (System.getProperty(LOGGING_SYSTEM) == null) {
            System.setProperty(LOGGING_SYSTEM, "none");
        }
        Map<String, Object> all = new HashMap<>(properties);
        all.put("spring.application.name", name);
        String exclude = properties.get(EXCLUDE);
        all.put(EXCLUDE, exclude == null ? CLASS_PATH_MISFITS : exclude + "," + CLASS_PATH_MISFITS);
        all.put("server.port", "0");
        all.put("server.address", HOST);
        // Boot 3.4+ shuts down gracefully by default: a test app flooded past its run (the late-replies test) spent
        // ~25 s of its close waiting on work no test reads.
        all.put("server.shutdown", "immediate");
        all.put("spring.lifecycle.timeout-per-shutdown-phase", "1s");
        // JMeter's Groovy and FreeMarker jars sit on the test class path; these apps render no templates.
        all.put("spring.groovy.template.check-template-location", "false");
        all.put("spring.freemarker.check-template-location", "false");
        try {
            return new SpringApplicationBuilder(application)
                    .bannerMode(Banner.Mode.OFF)
                    .logStartupInfo(false)
                    .properties(all)
                    .run();
        } catch (RuntimeException e) {
            throw new IllegalStateException(name + " failed to start on " + HOST, e);
        }
    }
}
