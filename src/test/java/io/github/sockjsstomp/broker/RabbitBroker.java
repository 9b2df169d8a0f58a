package io.github.sockjsstomp.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A RabbitMQ node of its own for the tests: the machine's RabbitMQ (Debian's {@code rabbitmq-server}, which
 * {@code make test} installs where it is missing: scripts/rabbitmq-install.sh) started from its own scripts as a
 * private node, its Web-STOMP and management plugins on free loopback ports, its data, logs and Erlang cookie in a
 * directory of the test's. A broker that nobody here wrote, and the one that does what Artemis does not: it puts a
 * NACKed message back in its queue and delivers it again, and it makes quorum and stream queues from a
 * SUBSCRIBE's headers. The node is its own process (Erlang), so it is stopped with {@link #close}, and killed
 * with the test JVM if that dies first.
 */
public final class RabbitBroker implements AutoCloseable {

    /** Where Debian's package puts the scripts that run a node as the calling user. */
    static final Path SCRIPTS = Path.of("/usr/lib/rabbitmq/bin");

    /** A first boot makes its database and enables the plugins: seconds, more on a loaded 2-core machine. */
    private static final long START_TIMEOUT_SECONDS = 180;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process node;
    private final Path dir;
    private final int webStompPort;
    private final int managementPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread killOnExit;

    private RabbitBroker(Process node, Path dir, int webStompPort, int managementPort) {
        this.node = node;
        this.dir = dir;
        this.webStompPort = webStompPort;
        this.managementPort = managementPort;
        this.killOnExit = new Thread(this::kill, "rabbitmq-node-kill");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts a node in {@code dir} (made if missing) and returns once its Web-STOMP and management listeners
     * answer. Fails, saying how to install it, where the machine has no RabbitMQ.
     */
    public static RabbitBroker start(Path dir) throws Exception {
        return start(dir, new String[0]);
    }

    /** As {@link #start(Path)}, with {@code config} lines added to its rabbitmq.conf. */
    public static RabbitBroker start(Path dir, String... config) throws Exception {
        Path server = SCRIPTS.resolve("rabbitmq-server");
        if (!Files.isExecutable(server)) {
            throw new IllegalStateException("RabbitMQ is not installed here (no " + server + "): `make test`"
                    + " installs it from Debian's packages (scripts/rabbitmq-install.sh, as root or with sudo)");
        }
        Files.createDirectories(dir);
        int amqp = freePort();
        int distribution = freePort();
        int webStomp = freePort();
        int management = freePort();
        // guest may log in from loopback only (RabbitMQ's default), which is where the tests are
        Files.writeString(
                dir.resolve("rabbitmq.conf"),
                String.join(
                        "\n",
                        "listeners.tcp.1 = 127.0.0.1:" + amqp,
                        "stomp.listeners.tcp = none",
                        "web_stomp.tcp.ip = 127.0.0.1",
                        "web_stomp.tcp.port = " + webStomp,
                        "management.tcp.ip = 127.0.0.1",
                        "management.tcp.port = " + management,
                        // queue counts the tests read a moment after a run; the default is every 5 s
                        "collect_statistics_interval = 500",
                        "log.console = false",
                        "log.file.level = warning",
                        String.join("\n", config),
                        ""));
        Files.writeString(dir.resolve("enabled_plugins"), "[rabbitmq_management,rabbitmq_web_stomp].\n");
        ProcessBuilder builder = new ProcessBuilder(server.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("node.out").toFile());
        Map<String, String> env = builder.environment();
        env.put("HOME", dir.toString()); // its own Erlang cookie
        env.put("RABBITMQ_NODENAME", "it-" + UUID.randomUUID().toString().substring(0, 8) + "@localhost");
        env.put("RABBITMQ_DIST_PORT", Integer.toString(distribution));
        env.put("RABBITMQ_CONF_ENV_FILE", dir.resolve("no-rabbitmq-env.conf").toString());
        env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", dir.resolve("advanced.config").toString());
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
        env.put("RABBITMQ_PLUGINS_EXPAND_DIR", dir.resolve("plugins-expand").toString());
        RabbitBroker broker = new RabbitBroker(builder.start(), dir, webStomp, management);
        try {
            broker.awaitStarted();
            return broker;
        } catch (Exception | AssertionError e) {
            broker.close();
            throw e;
        }
    }

    private void awaitStarted() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!node.isAlive()) {
                throw new IllegalStateException(
                        "the RabbitMQ node ended at its start (exit " + node.exitValue() + "): " + output());
            }
            if (listening(webStompPort) && managementAnswers()) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(
                "the RabbitMQ node did not start in " + START_TIMEOUT_SECONDS + " s: " + output());
    }

    private boolean managementAnswers() {
        try {
            return http.send(get("/api/overview"), HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String output() throws IOException {
        String out = Files.readString(dir.resolve("node.out"), StandardCharsets.UTF_8);
        return out.length() > 4000 ? out.substring(out.length() - 4000) : out;
    }

    /** The Web-STOMP listener's port: STOMP over plain WebSocket at {@code /ws}. */
    public int webStompPort() {
        return webStompPort;
    }

    /** The management API's address with guest's credentials, as the {@code rabbitmq:} figure source takes it. */
    public String managementUrl() {
        return "http://guest:guest@127.0.0.1:" + managementPort;
    }

    public int managementPort() {
        return managementPort;
    }

    /** The Erlang VM's process id, as the {@code pid:} figure source takes it. */
    public long pid() {
        return node.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("beam.smp"))
                .findFirst()
                .orElseThrow()
                .pid();
    }

    /**
     * The plan properties a user writes to point a plan at this broker: plain WebSocket at {@code /ws}, guest's
     * login, no HTTP login steps; then {@code more}.
     */
    public List<String> planProperties(String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "host=127.0.0.1",
                "port=" + webStompPort,
                "transport=raw",
                "endpoint=/ws",
                "login=guest",
                "passcode=guest",
                "indexPath=none",
                "pullPath=none"));
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    /**
     * A queue's counts as the management API gives them: published to it, delivered from it (redeliveries
     * among them), delivered again, acknowledged (ACKs; a NACK is not one), and now in it: ready and delivered
     * but unacknowledged.
     */
    public record QueueCounts(long published, long delivered, long redelivered, long acked, long ready, long unacked) {

        public QueueCounts plus(QueueCounts other) {
            return new QueueCounts(
                    published + other.published,
                    delivered + other.delivered,
                    redelivered + other.redelivered,
                    acked + other.acked,
                    ready + other.ready,
                    unacked + other.unacked);
        }
    }

    /** Queue {@code name}'s counts in the default virtual host now; all 0 if there is no such queue. */
    public QueueCounts counts(String name) throws Exception {
        HttpResponse<String> response = http.send(
                get("/api/queues/%2F/" + URLEncoder.encode(name, StandardCharsets.UTF_8)),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 404) {
            return new QueueCounts(0, 0, 0, 0, 0, 0);
        }
        JsonNode queue = json(response);
        JsonNode stats = queue.path("message_stats");
        return new QueueCounts(
                stats.path("publish").asLong(),
                stats.path("deliver").asLong(),
                stats.path("redeliver").asLong(),
                stats.path("ack").asLong(),
                queue.path("messages_ready").asLong(),
                queue.path("messages_unacknowledged").asLong());
    }

    /**
     * Deletes every queue of the default virtual host, as a fresh broker has none: a queue a line before declared
     * (a classic one, say) would refuse a SUBSCRIBE that asks for another kind of the same name.
     */
    public void deleteQueues() throws Exception {
        for (JsonNode queue : json(http.send(get("/api/queues/%2F"), HttpResponse.BodyHandlers.ofString()))) {
            String name = URLEncoder.encode(queue.path("name").asText(), StandardCharsets.UTF_8)
                    .replace("+", "%20");
            HttpResponse<Void> deleted = http.send(
                    request("/api/queues/%2F/" + name).DELETE().build(), HttpResponse.BodyHandlers.discarding());
            if (deleted.statusCode() / 100 != 2 && deleted.statusCode() != 404) {
                throw new IllegalStateException("deleting queue " + name + ": HTTP " + deleted.statusCode());
            }
        }
    }

    /**
     * Closes every client connection now, as a broker's operator would: what their consumers had not
     * acknowledged goes back to its queue, to be delivered again. Returns how many were closed.
     */
    public int closeConnections() throws Exception {
        JsonNode connections = json(http.send(get("/api/connections"), HttpResponse.BodyHandlers.ofString()));
        for (JsonNode connection : connections) {
            String name = URLEncoder.encode(connection.path("name").asText(), StandardCharsets.UTF_8)
                    .replace("+", "%20");
            HttpResponse<Void> closed = http.send(
                    request("/api/connections/" + name).DELETE().build(), HttpResponse.BodyHandlers.discarding());
            if (closed.statusCode() / 100 != 2) {
                throw new IllegalStateException("closing connection " + name + ": HTTP " + closed.statusCode());
            }
        }
        return connections.size();
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        if (response.statusCode() != 200) {
            throw new IllegalStateException(response.uri() + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private HttpRequest get(String path) {
        return request(path).GET().build();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(Duration.ofSeconds(10))
                .header(
                        "Authorization",
                        "Basic " + Base64.getEncoder().encodeToString("guest:guest".getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The node's processes, the Erlang VM and its helpers; its data goes with the test's directory. */
    private void kill() {
        node.descendants().forEach(ProcessHandle::destroyForcibly);
        node.destroyForcibly();
    }

    @Override
    public void close() throws Exception {
        kill();
        node.waitFor(30, TimeUnit.SECONDS);
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException exiting) {
            // the JVM is shutting down: the hook runs anyway
        }
    }
}
