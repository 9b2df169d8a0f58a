package io.github.sockjsstomp.client.wiring;

import io.github.sockjsstomp.client.Json;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.deflate.DeflateExtension;
import java.nio.channels.AsynchronousChannelGroup;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.apache.http.client.config.CookieSpecs;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.config.Registry;
import org.apache.http.config.RegistryBuilder;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.socket.client.WebSocketClient;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;
import org.springframework.web.socket.sockjs.client.RestTemplateXhrTransport;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.WebSocketTransport;
import org.springframework.web.socket.sockjs.frame.Jackson2SockJsMessageCodec;
import org.springframework.web.socket.sockjs.frame.SockJsMessageCodec;

/**
 * The expensive objects every virtual user of the JVM shares: one SockJS codec (over {@link Json}'s mapper), one Tomcat
 * WebSocket container, one STOMP client per transport kind, one heart-beat scheduler, one bounded connect
 * executor, one pooled HTTP client.
 *
 * <p>Why shared: JMeter's class loader takes one lock for every class lookup, and Spring's default codec and
 * RestTemplate probe for optional Jackson modules each time they are built. Built per thread, that stalls a
 * few hundred threads on the loader. Built once here, lazily, on the first connect: never in a
 * sampler's constructor, which JMeter's GUI calls just to list the samplers.
 */
public final class SharedStompClients {

    private static final Logger log = LoggerFactory.getLogger(SharedStompClients.class);

    /** The names of the I/O threads ({@code stomp-io-1}, ...): the steps' generator check reads their CPU. */
    public static final String IO_THREAD_PREFIX = "stomp-io-";

    private static final int XHR_CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int CONNECT_THREAD_IDLE_SECONDS = 5;
    /** How late a heart-beat, an inactivity check or a receipt's time limit may fire: they are seconds apart. */
    private static final long HEARTBEAT_TICK_MILLIS = 25;

    private static final int XHR_READ_TIMEOUT_MILLIS = 60_000;
    private static volatile SharedStompClients instance;

    private static final String SESSION_CLOSE_TIMEOUT_PROPERTY = "org.apache.tomcat.websocket.SESSION_CLOSE_TIMEOUT";
    private static final Long SESSION_CLOSE_TIMEOUT_MILLIS = 2000L;

    private final ClientSettings settings;
    private final ThreadPoolTaskExecutor connectExecutor;
    private final HeartbeatWheels heartbeatScheduler;
    private final int consumerThreads;
    private ThreadPoolTaskScheduler consumerScheduler;
    /** Per transport, one client per I/O lane (a Tomcat container opens every socket in one group). */
    private final Map<Transport, List<WebSocketStompClient>> stompClients = new EnumMap<>(Transport.class);
    /** For https/wss, built on the first such connect: TLS needs larger session buffers (see below). */
    private final Map<Transport, List<WebSocketStompClient>> secureStompClients = new EnumMap<>(Transport.class);
    /** Spreads the sessions over the lanes, round-robin. */
    private final AtomicInteger nextLane = new AtomicInteger();

    private final SockJsMessageCodec codec;
    private final RestTemplate restTemplate;
    private final CloseableHttpClient httpClient;
    private final List<SockJsClient> sockJsClients = new CopyOnWriteArrayList<>();
    /** The I/O lanes, one per container of a kind; a single null for Tomcat's own group. */
    private final List<AsynchronousChannelGroup> ioLanes;

    private SharedStompClients(ClientSettings settings) {
        this.settings = settings;
        this.connectExecutor = connectExecutor(settings.connectThreads());
        this.heartbeatScheduler =
                new HeartbeatWheels(settings.heartbeatThreads(), HEARTBEAT_TICK_MILLIS, "stomp-heartbeat-");
        // as many as the heart-beats': an acknowledgement, like a heart-beat, is a write that can wait on its session
        this.consumerThreads = settings.heartbeatThreads();
        TomcatBuffers.setIoBufferBytes(settings.ioBufferBytes());
        // before the first connect: a session that agrees on compression gets ours, not Tomcat's zlib streams
        DeflateExtension.install();
        this.ioLanes =
                settings.ioThreads() == 0 ? Collections.singletonList(null) : IoThreads.lanes(settings.ioThreads());
        this.codec = new Jackson2SockJsMessageCodec(Json.mapper());
        this.restTemplate = xhrRestTemplate();
        // SockJS frames are JSON arrays that must arrive whole: that container's message buffers hold the
        // largest frame. Plain WebSocket STOMP is decoded incrementally, so its sessions take frames in pieces
        // and keep small buffers whatever the message size (Tomcat allocates them for every session).
        buildStompClients(
                stompClients,
                settings.maxTextMessageChars(),
                settings.maxTextMessageChars(),
                TomcatBuffers.HANDSHAKE_BUFFER_BYTES);
        this.httpClient = buildHttpClient();
    }

    /**
     * The JVM's shared clients, built on the first call with the settings given then; later settings are
     * ignored (with a warning when they differ), since pools and buffers cannot be resized under load.
     */
    public static SharedStompClients get(ClientSettings settings) {
        SharedStompClients shared = instance;
        if (shared == null) {
            synchronized (SharedStompClients.class) {
                shared = instance;
                if (shared == null) {
                    shared = new SharedStompClients(settings);
                    instance = shared;
                    log.info("Built shared STOMP clients: {}", settings);
                    return shared;
                }
            }
        }
        if (!shared.settings.equals(settings)) {
            log.warn("Shared STOMP clients already built with {}; ignoring {}", shared.settings, settings);
        }
        return shared;
    }

    /** The client for this transport over https/wss when {@code secure}, on the next I/O lane. */
    public WebSocketStompClient stompClient(Transport transport, boolean secure) {
        List<WebSocketStompClient> lanes;
        if (!secure) {
            lanes = stompClients.get(transport);
        } else {
            synchronized (secureStompClients) {
                if (secureStompClients.isEmpty()) {
                    // Tomcat decrypts each TLS record straight into the session's input buffer (the handshake
                    // response too): it must hold a whole record, whatever the plain sessions' buffers are.
                    int tlsBytes =
                            defaultSslContext().createSSLEngine().getSession().getApplicationBufferSize();
                    buildStompClients(
                            secureStompClients,
                            settings.maxTextMessageChars(),
                            Math.max(settings.maxTextMessageChars(), tlsBytes),
                            Math.max(TomcatBuffers.HANDSHAKE_BUFFER_BYTES, tlsBytes));
                    log.info("Built shared STOMP clients for https/wss: {} byte session input buffers", tlsBytes);
                }
                lanes = secureStompClients.get(transport);
            }
        }
        return lanes.get(Math.floorMod(nextLane.getAndIncrement(), lanes.size()));
    }

    /**
     * Per lane, a SockJS WebSocket container ({@code sockJsBinaryBytes} also sizes its handshake buffer) and
     * a raw one (partial messages, {@code rawBinaryBytes}); XHR transports need no container and get one
     * client each.
     */
    private void buildStompClients(
            Map<Transport, List<WebSocketStompClient>> clients,
            int sockJsChars,
            int sockJsBinaryBytes,
            int rawBinaryBytes) {
        for (AsynchronousChannelGroup lane : ioLanes) {
            WebSocketClient webSocketClient =
                    new OfferingWebSocketClient(webSocketClient(lane, sockJsChars, sockJsBinaryBytes));
            WebSocketClient rawClient = new OfferingWebSocketClient(
                    webSocketClient(lane, TomcatBuffers.PARTIAL_MESSAGE_CHARS, rawBinaryBytes));
            add(clients, Transport.WEBSOCKET, sockJs(new WebSocketTransport(webSocketClient), restTemplate, codec));
            add(clients, Transport.RAW, rawClient);
        }
        add(clients, Transport.XHR_STREAMING, sockJs(new StreamingOnlyXhrTransport(restTemplate), restTemplate, codec));
        add(clients, Transport.XHR, sockJs(pollingXhrTransport(restTemplate), restTemplate, codec));
        // auto connects with what its probe chose, never as itself
    }

    private void add(Map<Transport, List<WebSocketStompClient>> clients, Transport kind, WebSocketClient client) {
        clients.computeIfAbsent(kind, k -> new ArrayList<>()).add(stompClient(client));
    }

    /** Drops the SockJS /info answers of finished connects (see {@link PerSessionInfoSockJsClient}). */
    public void forgetSockJsInfo(Transport transport) {
        if (transport.isSockJs()) {
            sockJsClients.forEach(SockJsClient::clearServerInfoCache);
        }
    }

    /** The heart-beat scheduler (a 25 ms tick), which also times when a session goes silent. */
    public TaskScheduler scheduler() {
        return heartbeatScheduler;
    }

    /**
     * The scheduler of the consumers' acknowledgements ({@code consumeMillis}): to the millisecond, unlike the
     * heart-beats' wheels, since its delays are the consumers' processing times. Made on first use: a run whose
     * consumers acknowledge at once or not at all has no thread for it.
     */
    public synchronized TaskScheduler consumerScheduler() {
        if (consumerScheduler == null) {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("stomp-consume-");
            scheduler.setPoolSize(consumerThreads);
            scheduler.setDaemon(true);
            scheduler.setRemoveOnCancelPolicy(true);
            scheduler.initialize();
            consumerScheduler = scheduler;
        }
        return consumerScheduler;
    }

    public CloseableHttpClient httpClient() {
        return httpClient;
    }

    public ClientSettings settings() {
        return settings;
    }

    private StandardWebSocketClient webSocketClient(
            AsynchronousChannelGroup lane, int maxTextChars, int maxBinaryBytes) {
        StandardWebSocketClient client = new StandardWebSocketClient(container(lane, maxTextChars, maxBinaryBytes));
        client.setTaskExecutor(connectExecutor);
        // A session we close waits this long for the server's close frame before closing its socket (Tomcat's
        // default, 30 s, keeps every session of a stalled server open that long after the test let it go).
        client.setUserProperties(Map.of(SESSION_CLOSE_TIMEOUT_PROPERTY, SESSION_CLOSE_TIMEOUT_MILLIS));
        // wss with the JVM's own key and trust stores (javax.net.ssl.*, as JMeter's system.properties sets
        // them): Tomcat's own default context would present no client certificate.
        client.setSslContext(defaultSslContext());
        return client;
    }

    /**
     * A Tomcat WebSocket container as the plugin's clients have theirs: on {@code lane} (null: Tomcat's own I/O
     * group), its message buffers {@code maxTextChars} and {@code maxBinaryBytes} (see {@link TomcatBuffers}), no idle
     * timeout. Package-private for the benchmark floors ({@code FloorLanes}), which build theirs with this code.
     */
    static WsWebSocketContainer container(AsynchronousChannelGroup lane, int maxTextChars, int maxBinaryBytes) {
        WsWebSocketContainer container = new WsWebSocketContainer();
        if (lane != null) {
            IoThreads.install(container, lane);
        }
        container.setDefaultMaxTextMessageBufferSize(maxTextChars);
        // Also the buffer the handshake response is read into, then the session's input buffer.
        container.setDefaultMaxBinaryMessageBufferSize(maxBinaryBytes);
        // Idle sessions are the point of a connection test: STOMP heart-beats police liveness, not Tomcat.
        container.setDefaultMaxSessionIdleTimeout(0);
        return container;
    }

    private WebSocketStompClient stompClient(WebSocketClient client) {
        WebSocketClient serializing = new SerializingWebSocketClient(client, settings.sendTimeLimitMillis());
        WebSocketStompClient stompClient = new ReceiptingStompClient(serializing);
        stompClient.setTaskScheduler(heartbeatScheduler);
        stompClient.setInboundMessageSizeLimit(settings.maxMessageBytes());
        // The default SimpleMessageConverter carries byte[] payloads as they are: no conversion per message.
        return stompClient;
    }

    // Transport: Spring's SockJS transport here, ours (io.github.sockjsstomp.client.Transport) elsewhere
    @SuppressWarnings("checkstyle:qualifiedname")
    private PerSessionInfoSockJsClient sockJs(
            org.springframework.web.socket.sockjs.client.Transport transport,
            RestTemplate restTemplate,
            SockJsMessageCodec codec) {
        PerSessionInfoSockJsClient client = new PerSessionInfoSockJsClient(List.of(transport));
        sockJsClients.add(client);
        // The /info request goes through our RestTemplate, not a default one built with Jackson probing.
        client.setInfoReceiver(new RestTemplateXhrTransport(restTemplate));
        client.setMessageCodec(codec);
        return client;
    }

    private static RestTemplateXhrTransport pollingXhrTransport(RestTemplate restTemplate) {
        RestTemplateXhrTransport transport = new RestTemplateXhrTransport(restTemplate);
        transport.setXhrStreamingDisabled(true);
        return transport;
    }

    private static RestTemplate xhrRestTemplate() {
        // HttpURLConnection never stores cookies unless a JVM-wide CookieHandler is set, so users share no jar;
        // the user's Cookie header travels in the handshake headers SockJsClient copies onto every request.
        SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
        factory.setConnectTimeout(XHR_CONNECT_TIMEOUT_MILLIS);
        // SockJS's /info request runs inside connectAsync on the caller's thread: without a read timeout a
        // silent server would hold it forever. Longer than the server's 25 s SockJS heart-beat, so XHR
        // streaming and polling, which wait for it, are not cut.
        factory.setReadTimeout(XHR_READ_TIMEOUT_MILLIS);
        RestTemplate restTemplate = new RestTemplate(List.of(new StringHttpMessageConverter()));
        restTemplate.setRequestFactory(factory);
        restTemplate.getInterceptors().add(new SockJsCookies());
        return restTemplate;
    }

    private static ThreadPoolTaskExecutor connectExecutor(int threads) {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setThreadNamePrefix("stomp-connect-");
        executor.setCorePoolSize(threads);
        executor.setMaxPoolSize(threads);
        // idle threads end soon, as the connect lanes do: held sessions need none, and each one kept (Spring's
        // default keeps them 60 s) is a stack and a 4 KB buffer cache of the JDK's
        executor.setKeepAliveSeconds(CONNECT_THREAD_IDLE_SECONDS);
        executor.setAllowCoreThreadTimeOut(true);
        executor.setDaemon(true);
        executor.initialize();
        return executor;
    }

    private static SSLContext defaultSslContext() {
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("No default TLS context: check the javax.net.ssl.* settings", e);
        }
    }

    private static CloseableHttpClient buildHttpClient() {
        // https with the JVM's key and trust stores, as for wss (HttpClient's default would send no certificate).
        Registry<ConnectionSocketFactory> schemes = RegistryBuilder.<ConnectionSocketFactory>create()
                .register("http", PlainConnectionSocketFactory.getSocketFactory())
                .register("https", SSLConnectionSocketFactory.getSystemSocketFactory())
                .build();
        PoolingHttpClientConnectionManager connections =
                new PoolingHttpClientConnectionManager(schemes, null, null, null, 60, TimeUnit.SECONDS);
        connections.setMaxTotal(2000);
        connections.setDefaultMaxPerRoute(2000);
        RequestConfig requestConfig =
                RequestConfig.custom().setCookieSpec(CookieSpecs.STANDARD).build();
        // Cookies live in each user's own store, passed per request; the client's default store stays unused.
        // Idle connections are closed after a while: a server or load balancer that drops them silently would
        // otherwise fail the next user's login step on a dead connection.
        return HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(requestConfig)
                .disableAutomaticRetries()
                .evictExpiredConnections()
                .evictIdleConnections(30, TimeUnit.SECONDS)
                .build();
    }

    @Override
    public String toString() {
        return "SharedStompClients" + settings;
    }
}
