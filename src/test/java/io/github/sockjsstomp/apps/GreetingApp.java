package io.github.sockjsstomp.apps;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.config.WebSocketMessageBrokerStats;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * Spring's STOMP getting-started app ("Using WebSocket to build an interactive web application") as users
 * copy it: {@code /gs-guide-websocket}, a simple broker on {@code /topic}, {@code /app} for the controller,
 * {@code /app/hello} taking {@code {"name":"..."}} and answering {@code {"content":"Hello, <name>!"}} on
 * {@code /topic/greetings} after a pause (1000 ms in the guide). The controller runs on Spring's inbound channel,
 * whose pool is left at Spring's default as in the guide (twice the cores, an unbounded queue in front): with the
 * guide's pause the app answers {@link #greetingsPerSecond()} and queues the rest. Test code only; binds 127.0.0.1
 * on a random port.
 */
public final class GreetingApp extends BootApp {

    public static final String ENDPOINT = "/gs-guide-websocket";
    /** The guide's pause before each greeting. */
    public static final long GUIDE_DELAY_MILLIS = 1000;

    private GreetingApp(ConfigurableApplicationContext context) {
        super(context);
    }

    /**
     * Starts the app.
     *
     * @param sockJs false: the endpoint as the guide publishes it today (plain WebSocket); true: the older
     *     guide's {@code .withSockJS()}
     * @param greetingDelayMillis the controller's pause before answering; the guide's is {@link #GUIDE_DELAY_MILLIS}
     */
    public static GreetingApp start(boolean sockJs, long greetingDelayMillis) {
        return start(sockJs, greetingDelayMillis, 0);
    }

    /**
     * As above, with the simple broker's heart-beats both ways every {@code heartbeatMillis} (0: none, as in the
     * guide). With them, the broker closes a session whose client sends nothing for three intervals.
     */
    public static GreetingApp start(boolean sockJs, long greetingDelayMillis, long heartbeatMillis) {
        return new GreetingApp(BootApps.start(
                GuideApplication.class,
                "greeting-app",
                Map.of(
                        "greeting.sockjs", Boolean.toString(sockJs),
                        "greeting.delay-millis", Long.toString(greetingDelayMillis),
                        "greeting.heartbeat-millis", Long.toString(heartbeatMillis),
                        // The test class path has Spring Security for the secured app: this one is the guide's, open.
                        "spring.autoconfigure.exclude", BootApps.SECURITY_AUTO_CONFIGURATIONS,
                        // The server figures' test polls it (actuator, test scope): Boot exposes only health.
                        "management.endpoints.web.exposure.include", "health,metrics")));
    }

    /** The guide's app as published: plain WebSocket, 1000 ms pause. */
    public static GreetingApp start() {
        return start(false, GUIDE_DELAY_MILLIS);
    }

    /**
     * The threads that run the controller: the inbound channel's pool, Spring's default (twice this JVM's cores).
     * Its queue is unbounded, so the pool never grows past them.
     */
    public int inboundThreads() {
        return context.getBean("clientInboundChannelExecutor", ThreadPoolTaskExecutor.class)
                .getCorePoolSize();
    }

    /** The most greetings a second the app answers: each inbound thread sleeps its pause in every greeting. */
    public double greetingsPerSecond() {
        long delayMillis = context.getEnvironment().getRequiredProperty("greeting.delay-millis", Long.class);
        return delayMillis == 0 ? Double.POSITIVE_INFINITY : inboundThreads() * 1000.0 / delayMillis;
    }

    @Override
    public String toString() {
        return "GreetingApp[" + baseUrl() + ENDPOINT + ", sockjs="
                + context.getEnvironment().getProperty("greeting.sockjs") + "]";
    }

    /** The guide's {@code @SpringBootApplication}, without component scanning of this package's other app. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({WebSocketConfig.class, GreetingController.class, SessionsMetric.class})
    static class GuideApplication {}

    /**
     * Not in the guide: the gauge docs/server-figures.md tells users to add, since neither Spring nor Boot puts the
     * WebSocket sessions Spring counts into the actuator's metrics (serverFigures reads {@code websocket.sessions}).
     */
    @Configuration
    static class SessionsMetric {

        @Bean
        MeterBinder webSocketSessions(WebSocketMessageBrokerStats stats) {
            return registry -> Gauge.builder(
                            "websocket.sessions",
                            stats,
                            s -> s.getWebSocketSessionStats().getTotalSessions())
                    .description("WebSocket sessions, SockJS ones included, the app holds")
                    .register(registry);
        }
    }

    @Configuration
    @EnableWebSocketMessageBroker
    static class WebSocketConfig implements WebSocketMessageBrokerConfigurer {

        private final boolean sockJs;
        private final long heartbeatMillis;

        WebSocketConfig(
                @Value("${greeting.sockjs:false}") boolean sockJs,
                @Value("${greeting.heartbeat-millis:0}") long heartbeatMillis) {
            this.sockJs = sockJs;
            this.heartbeatMillis = heartbeatMillis;
        }

        @Override
        public void configureMessageBroker(MessageBrokerRegistry config) {
            var broker = config.enableSimpleBroker("/topic");
            if (heartbeatMillis > 0) {
                ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
                scheduler.setThreadNamePrefix("greeting-heartbeat-");
                scheduler.setDaemon(true);
                scheduler.initialize();
                broker.setTaskScheduler(scheduler).setHeartbeatValue(new long[] {heartbeatMillis, heartbeatMillis});
            }
            config.setApplicationDestinationPrefixes("/app");
        }

        @Override
        public void registerStompEndpoints(StompEndpointRegistry registry) {
            if (sockJs) {
                registry.addEndpoint(ENDPOINT).withSockJS();
            } else {
                registry.addEndpoint(ENDPOINT);
            }
        }
    }

    /** The guide's HelloMessage. */
    public record HelloMessage(String name) {}

    /** The guide's Greeting. */
    public record Greeting(String content) {}

    @Controller
    static class GreetingController {

        private final long delayMillis;

        GreetingController(@Value("${greeting.delay-millis:1000}") long delayMillis) {
            this.delayMillis = delayMillis;
        }

        @MessageMapping("/hello")
        @SendTo("/topic/greetings")
        public Greeting greeting(HelloMessage message) throws InterruptedException {
            if (delayMillis > 0) {
                Thread.sleep(delayMillis); // simulated delay, as in the guide
            }
            return new Greeting("Hello, " + message.name() + "!");
        }
    }
}
