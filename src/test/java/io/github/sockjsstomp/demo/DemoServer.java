package io.github.sockjsstomp.demo;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.websocket.server.WsContextListener;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * An embedded Tomcat + Spring (no Boot) SockJS/STOMP server to run the samplers against, test code only.
 *
 * <ul>
 * <li>{@code GET /index}: sets a new {@code DEMOSESSION} cookie (one per virtual user), small HTML page.</li>
 * <li>{@code GET /clientPull}: 401 without a valid cookie, else {@code {"session":"…","status":"ok"}}.</li>
 * <li>{@code GET /stats}: JSON counters.</li>
 * <li>SockJS endpoint {@code /ws} (all transports; handshake 403 without the cookie) and raw WebSocket STOMP
 * endpoint {@code /stomp-ws} (no cookie); {@code /stomp-strict}, a strict broker that answers refusals with
 * ERROR frames and keeps the connection open ({@link DemoStrictBroker}).</li>
 * <li>STOMP: {@code /app/hello}, {@code /app/echo}, {@code /app/chat}, {@code /app/push}; simple broker on
 * {@code /topic} and {@code /queue}, user prefix {@code /user}; login header = Principal; passcode
 * {@code reject} = ERROR frame.</li>
 * </ul>
 *
 * Modelled on spring-websocket's TomcatWebSocketTestServer. Binds 127.0.0.1 only.
 */
public final class DemoServer implements AutoCloseable {

    /** Address the connector binds; loopback only. */
    public static final String HOST = "127.0.0.1";

    /** Every this-many-th message of a user (its payload's {@code seq}) to {@code /app/echo-lossy} is not answered. */
    public static final int ECHO_LOSSY_EVERY = 3;

    private static final long CLOSE_TIMEOUT_SECONDS = 30;

    private final Tomcat tomcat;

    private final AnnotationConfigWebApplicationContext context;

    private final Path baseDir;

    private final int port;

    private volatile boolean closed;

    private DemoServer(Tomcat tomcat, AnnotationConfigWebApplicationContext context, Path baseDir, int port) {
        this.tomcat = tomcat;
        this.context = context;
        this.baseDir = baseDir;
        this.port = port;
    }

    /**
     * Starts a server on 127.0.0.1.
     * @param port the port, or 0 for a random free one
     * @throws IllegalStateException if Tomcat or the Spring context fails to start (e.g. port in use)
     */
    public static DemoServer start(int port) {
        return start(port, null);
    }

    /**
     * Key and trust stores (PKCS12, one password) of a server on TLS that requires a client certificate its
     * trust store vouches for.
     */
    public record Tls(Path keyStore, Path trustStore, String password) {}

    /**
     * Starts a server on 127.0.0.1, on TLS when {@code tls} is given.
     * @param port the port, or 0 for a random free one
     */
    public static DemoServer start(int port, Tls tls) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
        Path baseDir;
        try {
            baseDir = Files.createTempDirectory("demo-tomcat.");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }

        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(port);
        connector.setProperty("address", HOST);
        connector.setProperty("maxConnections", "20000");
        connector.setProperty("acceptCount", "1024");
        connector.setProperty("maxThreads", "200");
        // SockJS polling clients issue many requests per connection.
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setThrowOnFailure(true);
        if (tls != null) {
            connector.setSecure(true);
            connector.setScheme("https");
            connector.setProperty("SSLEnabled", "true");
            SSLHostConfig ssl = new SSLHostConfig();
            ssl.setCertificateVerification("required");
            ssl.setTruststoreFile(tls.trustStore().toString());
            ssl.setTruststorePassword(tls.password());
            ssl.setTruststoreType("PKCS12");
            SSLHostConfigCertificate certificate =
                    new SSLHostConfigCertificate(ssl, SSLHostConfigCertificate.Type.UNDEFINED);
            certificate.setCertificateKeystoreFile(tls.keyStore().toString());
            certificate.setCertificateKeystorePassword(tls.password());
            certificate.setCertificateKeystoreType("PKCS12");
            ssl.addCertificate(certificate);
            connector.addSslHostConfig(ssl);
        }

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);

        AnnotationConfigWebApplicationContext context = new AnnotationConfigWebApplicationContext();
        context.setDisplayName("sockjs-stomp demo server");
        context.register(DemoWebSocketConfig.class, DemoStrictBroker.class);

        Context servletContext = tomcat.addContext("", baseDir.toString());
        if (servletContext instanceof StandardContext standardContext) {
            // A failing Spring configuration fails the start instead of leaving a context without its servlet.
            standardContext.setFailCtxIfServletStartFails(true);
        }
        servletContext.addApplicationListener(WsContextListener.class.getName());
        DispatcherServlet dispatcherServlet = new DispatcherServlet(context);
        Wrapper wrapper = Tomcat.addServlet(servletContext, "dispatcherServlet", dispatcherServlet);
        wrapper.setAsyncSupported(true); // SockJS HTTP streaming/polling transports
        wrapper.setLoadOnStartup(1); // refresh the Spring context during start(), not on the first request
        servletContext.addServletMapping("/", "dispatcherServlet");
        FilterDef sticky = new FilterDef();
        sticky.setFilterName("sticky");
        sticky.setFilter(new DemoStickyCookieFilter());
        sticky.setAsyncSupported("true");
        servletContext.addFilterDef(sticky);
        FilterMap stickyMap = new FilterMap();
        stickyMap.setFilterName("sticky");
        stickyMap.addURLPattern("/ws/*");
        servletContext.addFilterMap(stickyMap);

        DemoServer server = null;
        try {
            tomcat.start();
            if (connector.getState() != LifecycleState.STARTED || connector.getLocalPort() <= 0) {
                throw new IllegalStateException("Connector did not start on " + HOST + ":" + port);
            }
            if (servletContext.getState() != LifecycleState.STARTED || !context.isActive()) {
                throw new IllegalStateException("Web application did not start");
            }
            server = new DemoServer(tomcat, context, baseDir, connector.getLocalPort());
            return server;
        } catch (LifecycleException | RuntimeException ex) {
            shutdown(tomcat, context, baseDir);
            throw new IllegalStateException("Demo server failed to start on " + HOST + ":" + port, ex);
        }
    }

    /** The bound port (never 0). */
    public int port() {
        return this.port;
    }

    /** {@code http://127.0.0.1:<port>} (no trailing slash). */
    public String baseUrl() {
        return "http://" + HOST + ":" + this.port;
    }

    /** Current number of STOMP-connected sessions (as in {@code /stats}). */
    /**
     * SockJS session requests that carried / lacked the sticky cookie set on /info, and the /info requests
     * (JVM-wide counts).
     */
    public static long[] stickyAndUnstickyRequests() {
        return new long[] {
            DemoStickyCookieFilter.STICKY_REQUESTS.get(),
            DemoStickyCookieFilter.UNSTICKY_REQUESTS.get(),
            DemoStickyCookieFilter.INFO_REQUESTS.get()
        };
    }

    /** Connections open on the strict broker endpoint, across the JVM's demo servers. */
    public static int strictBrokerOpenSessions() {
        return DemoStrictBroker.OPEN_SESSIONS.get();
    }

    /** The session cookie values this server issued and still accepts. */
    public Set<String> sessionCookieValues() {
        return this.context.getBean(DemoHttpSessions.class).tokens();
    }

    /** Per session cookie value this server still accepts, how many handshakes carried it. */
    public Map<String, Integer> handshakesPerSessionCookie() {
        return this.context.getBean(DemoHttpSessions.class).handshakesPerToken();
    }

    public int connectedSessions() {
        return this.context.getBean(DemoStats.class).connectedSessionCount();
    }

    /**
     * Connected sessions that ended with neither DISCONNECT nor a close frame (status 1006): what a client leaves
     * when it exits with sessions still open, instead of closing them.
     */
    public long sessionsDroppedWithoutClose() {
        return this.context.getBean(DemoStats.class).droppedWithoutClose();
    }

    /** Closes the Spring context (WebSocket sessions get close status 1001) and stops Tomcat; bounded wait. */
    @Override
    public void close() {
        synchronized (this) {
            if (this.closed) {
                return;
            }
            this.closed = true;
        }
        Thread stopper = new Thread(() -> shutdown(this.tomcat, this.context, this.baseDir), "demo-server-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(TimeUnit.SECONDS.toMillis(CLOSE_TIMEOUT_SECONDS));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            System.err.println(
                    "Demo server: stop still running after " + CLOSE_TIMEOUT_SECONDS + " s, giving up waiting");
        }
    }

    private static void shutdown(Tomcat tomcat, AnnotationConfigWebApplicationContext context, Path baseDir) {
        try {
            // The DispatcherServlet does not close a context handed to it, so close it here (first, so that
            // Spring closes the WebSocket sessions cleanly while the connector still runs).
            if (context.isActive()) {
                context.close();
            }
        } catch (RuntimeException ex) {
            System.err.println("Demo server: closing the Spring context failed: " + ex);
        }
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException | RuntimeException ex) {
            System.err.println("Demo server: stopping Tomcat failed: " + ex);
        }
        deleteRecursively(baseDir);
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException | UncheckedIOException ex) {
            // best effort: a temp dir
        }
    }

    /**
     * Runs the server until the JVM is stopped. Options: {@code --port N} (default 8080, 0 = random free port),
     * {@code --port-file PATH} (the bound port is written there once listening).
     */
    public static void main(String[] args) throws Exception {
        int port = 8080;
        Path portFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(requireValue(args, ++i, "--port"));
                case "--port-file" -> portFile = Path.of(requireValue(args, ++i, "--port-file"));
                case "-h", "--help" -> {
                    System.out.println("Usage: DemoServer [--port N (default 8080, 0 = random)] [--port-file PATH]");
                    return;
                }
                default ->
                    throw new IllegalArgumentException(
                            "Unknown argument: " + args[i] + " (usage: [--port N] [--port-file PATH])");
            }
        }
        configureConsoleLogging();

        DemoServer server = start(port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "demo-server-shutdown"));

        if (portFile != null) {
            Path absolute = portFile.toAbsolutePath();
            if (absolute.getParent() != null) {
                Files.createDirectories(absolute.getParent());
            }
            Path tmp = absolute.resolveSibling(absolute.getFileName() + ".tmp");
            Files.writeString(tmp, server.port() + "\n", StandardCharsets.US_ASCII);
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        System.out.println("Demo server listening on " + server.baseUrl()
                + " (SockJS endpoint " + DemoWebSocketConfig.SOCKJS_ENDPOINT
                + ", raw STOMP " + DemoWebSocketConfig.RAW_ENDPOINT + ")");
        System.out.flush();
        stopped.await();
    }

    private static String requireValue(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    /**
     * Console logging for the standalone server: Spring logs through commons-logging, which on the test
     * classpath ends in Log4j 2 without a configuration file (ERROR only by default); raise that to WARN unless
     * the caller chose a level. Tomcat's JULI logs its few start/stop lines at INFO. Nothing logs per message.
     */
    private static void configureConsoleLogging() {
        if (System.getProperty("org.apache.logging.log4j.level") == null) {
            System.setProperty("org.apache.logging.log4j.level", "WARN");
        }
    }
}
