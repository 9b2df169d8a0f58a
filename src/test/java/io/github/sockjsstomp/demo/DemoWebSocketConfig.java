package io.github.sockjsstomp.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.beans.BeansException;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import org.springframework.messaging.simp.config.ChannelRegistration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.messaging.simp.user.SimpUserRegistry;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketTransportRegistration;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * Spring MVC + STOMP configuration of the demo server (plain Spring, no Boot).
 *
 * <p>Sized for a few thousand concurrent sessions and ~10 KB messages; see the constants.
 */
@Configuration
@EnableWebMvc
@EnableWebSocketMessageBroker
class DemoWebSocketConfig implements WebSocketMessageBrokerConfigurer, ApplicationContextAware {

    /** SockJS endpoint; its handshake needs the DEMOSESSION cookie. */
    static final String SOCKJS_ENDPOINT = "/ws";

    /** Plain WebSocket STOMP endpoint, no cookie needed (like a broker's endpoint). */
    static final String RAW_ENDPOINT = "/stomp-ws";

    /** Largest inbound STOMP frame (Spring's decoder buffer limit, default 64 KiB). */
    static final int MESSAGE_SIZE_LIMIT = 1024 * 1024;

    /** Outbound bytes Spring may buffer per session while a send is in progress (default 512 KiB). */
    static final int SEND_BUFFER_SIZE_LIMIT = 2 * 1024 * 1024;

    /** Longest a single send to a client may take before the session is closed (default 10 s). */
    static final int SEND_TIME_LIMIT_MS = 20_000;

    /**
     * Tomcat's per-session text and binary message buffers (system property {@code demo.wsBufferSize}).
     * Tomcat allocates BOTH eagerly for every WebSocket session: a CharBuffer of this many chars (2 bytes each)
     * plus a ByteBuffer, i.e. 3 x this size of heap per session. Measured with 2000 open WebSocket sessions:
     * ~460 KB of live heap per session at 128 KiB (916 MB in total), ~265 KB at 64 KiB. Whole inbound messages
     * larger than this are refused with close code 1009 (outbound messages are not limited by it).
     */
    static final int CONTAINER_MESSAGE_BUFFER_SIZE = Integer.getInteger("demo.wsBufferSize", 128 * 1024);

    /** SockJS HTTP transports: messages cached between polls (default 100), enough for one full push burst. */
    static final int SOCKJS_HTTP_MESSAGE_CACHE_SIZE = DemoStompController.MAX_PUSH_COUNT;

    /**
     * The simple broker's heart-beats, both ways (system property {@code demo.heartbeatMillis}, default 10 s, read at
     * each start). A client sees them missing after three times the longer of its own and these: a test of
     * heart-beats that stop arriving sets a short one rather than wait half a minute.
     */
    static long heartbeatMillis() {
        return Long.getLong(HEARTBEAT_MILLIS_PROPERTY, 10_000);
    }

    static final String HEARTBEAT_MILLIS_PROPERTY = "demo.heartbeatMillis";

    static final int CHANNEL_THREADS =
            Math.max(4, Math.min(8, Runtime.getRuntime().availableProcessors()));

    private ApplicationContext applicationContext;

    @Override
    public void setApplicationContext(ApplicationContext applicationContext) throws BeansException {
        this.applicationContext = applicationContext;
    }

    @Bean
    DemoHttpSessions demoHttpSessions() {
        return new DemoHttpSessions();
    }

    @Bean
    DemoStats demoStats() {
        return new DemoStats();
    }

    @Bean
    DemoMutedSessions demoMutedSessions() {
        return new DemoMutedSessions();
    }

    @Bean
    ObjectMapper demoObjectMapper() {
        return new ObjectMapper();
    }

    @Bean
    DemoHttpController demoHttpController() {
        return new DemoHttpController(demoHttpSessions(), demoStats(), demoObjectMapper());
    }

    @Bean
    DemoStompController demoStompController(
            SimpMessagingTemplate brokerMessagingTemplate, SimpUserRegistry userRegistry) {
        return new DemoStompController(brokerMessagingTemplate, userRegistry, demoObjectMapper(), demoStats());
    }

    /** Sends the simple broker's STOMP heart-beats. */
    @Bean
    ThreadPoolTaskScheduler demoHeartbeatScheduler() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(2);
        scheduler.setThreadNamePrefix("demo-heartbeat-");
        scheduler.setDaemon(true);
        return scheduler;
    }

    /** Configures Tomcat's JSR-356 container (read from the ServletContext, set up by WsContextListener). */
    @Bean
    ServletServerContainerFactoryBean demoWebSocketContainer() {
        ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(CONTAINER_MESSAGE_BUFFER_SIZE);
        container.setMaxBinaryMessageBufferSize(CONTAINER_MESSAGE_BUFFER_SIZE);
        return container;
    }

    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
        // Handle a session's frames in order, so a SUBSCRIBE is registered before the SEND that follows it.
        registry.setPreserveReceiveOrder(true);
        registry.addEndpoint(SOCKJS_ENDPOINT)
                .setAllowedOriginPatterns("*")
                .addInterceptors(new DemoCookieHandshakeInterceptor(demoHttpSessions()))
                .withSockJS()
                .setHttpMessageCacheSize(SOCKJS_HTTP_MESSAGE_CACHE_SIZE);
        registry.addEndpoint(RAW_ENDPOINT).setAllowedOriginPatterns("*");
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
        registry.setApplicationDestinationPrefixes("/app");
        registry.setUserDestinationPrefix("/user");
        registry.enableSimpleBroker("/topic", "/queue")
                .setTaskScheduler(demoHeartbeatScheduler())
                .setHeartbeatValue(new long[] {heartbeatMillis(), heartbeatMillis()});
        registry.setPreservePublishOrder(true);
    }

    @Override
    public void configureWebSocketTransport(WebSocketTransportRegistration registration) {
        registration
                .setMessageSizeLimit(MESSAGE_SIZE_LIMIT)
                .setSendBufferSizeLimit(SEND_BUFFER_SIZE_LIMIT)
                .setSendTimeLimit(SEND_TIME_LIMIT_MS);
    }

    @Override
    public void configureClientInboundChannel(ChannelRegistration registration) {
        DemoConnectInterceptor connectInterceptor = new DemoConnectInterceptor(
                () -> this.applicationContext.getBean("clientOutboundChannel", MessageChannel.class), demoStats());
        registration.interceptors(
                connectInterceptor,
                demoStats().inboundCounter(),
                demoMutedSessions().inbound());
        registration.taskExecutor().corePoolSize(CHANNEL_THREADS).maxPoolSize(CHANNEL_THREADS);
    }

    @Override
    public void configureClientOutboundChannel(ChannelRegistration registration) {
        registration.interceptors(
                demoStats().outboundCounter(), demoMutedSessions().outbound());
        registration.taskExecutor().corePoolSize(CHANNEL_THREADS).maxPoolSize(CHANNEL_THREADS);
    }
}
