package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The poller against a management API on loopback (the JDK's HTTP server answering RabbitMQ's recorded overview)
 * and this JVM's pid: rows of both, a hanging or failing server said once and never holding the others or the
 * close.
 */
class ServerFiguresTest {

    private static final long WAIT_SECONDS = 20;

    @TempDir
    Path dir;

    private HttpServer server;
    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "test-management-api");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private String url(String userInfo) {
        return "http://" + userInfo + "127.0.0.1:" + server.getAddress().getPort();
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private ServerFigures poll(String sources, Path file) throws IOException {
        return ServerFigures.start(new ServerFigures.Settings(SourceSpec.parseList(sources), 100, file), notices::add);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static List<String> rows(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean pollerAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("stomp-server-figures") && t.isAlive());
    }

    @Test
    void everySourceIsPolledIntoTheFileWithBasicAuthFromTheUrl() throws Exception {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        server.createContext("/api/overview", exchange -> {
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            answer(exchange, 200, Fixtures.read("rabbitmq-3.10-overview-busy.json"));
        });
        Path file = dir.resolve("server.csv");
        ServerFigures figures = poll(
                "rabbitmq:" + url("guest:gu%40st@") + ",pid:"
                        + ProcessHandle.current().pid(),
                file);
        await(
                () -> rows(file).stream()
                                .filter(r -> r.contains(",pid,process_cpu,"))
                                .count()
                        >= 2,
                "two CPU rows");
        figures.close();

        assertThat(pollerAlive()).as("the poller's thread ends with the run").isFalse();
        List<String> rows = rows(file);
        assertThat(rows.get(0)).isEqualTo("epoch_ms,source,metric,value");
        assertThat(rows)
                .anyMatch(r -> r.endsWith(",rabbitmq,connections,0"))
                .anyMatch(r -> r.endsWith(",rabbitmq,publish_per_s,9.8"))
                .anyMatch(r -> r.endsWith(",rabbitmq,deliver_per_s,6.8"))
                .anyMatch(r -> r.endsWith(",rabbitmq,queue_depth,52"))
                .anyMatch(r -> r.contains(",pid,threads,"));
        assertThat(authorizations)
                .isNotEmpty()
                .allSatisfy(a -> assertThat(a)
                        .isEqualTo("Basic "
                                + Base64.getEncoder().encodeToString("guest:gu@st".getBytes(StandardCharsets.UTF_8))));
        assertThat(notices).isEmpty();
        int written = rows.size();
        Thread.sleep(300);
        assertThat(rows(file)).as("nothing after the close").hasSize(written);
    }

    @Test
    void aServerThatHangsIsSaidOnceAndHoldsNeitherTheOtherSourcesNorTheClose() throws Exception {
        server.createContext("/api/overview", exchange -> {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, Fixtures.read("rabbitmq-3.10-overview-busy.json"));
        });
        Path file = dir.resolve("server.csv");
        ServerFigures figures =
                poll("rabbitmq:" + url("") + ",pid:" + ProcessHandle.current().pid(), file);
        // Each round waits out the hung request (2 s, FigureHttp's floor) before the pid is polled: its second poll
        // comes after the server's second failure, enough to show a failure said once.
        await(() -> rows(file).stream().filter(r -> r.contains(",pid,threads,")).count() >= 2, "two pid polls");
        figures.close();

        assertThat(pollerAlive()).isFalse();
        assertThat(rows(file)).noneMatch(r -> r.contains(",rabbitmq,"));
        assertThat(notices)
                .singleElement()
                .asString()
                .contains("server figures: rabbitmq:" + url("") + " cannot be read")
                .contains("left out until it answers");
    }

    @Test
    void aServerThatComesBackIsSaidOnceWhenItFailsAndOnceWhenItAnswers() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        server.createContext("/api/overview", exchange -> {
            if (requests.incrementAndGet() <= 3) {
                answer(exchange, 503, "");
            } else {
                answer(exchange, 200, Fixtures.read("rabbitmq-3.10-overview-idle.json"));
            }
        });
        Path file = dir.resolve("server.csv");
        ServerFigures figures = poll("rabbitmq:" + url(""), file);
        await(() -> rows(file).size() >= 3, "two polls answered");
        figures.close();

        assertThat(notices).hasSize(2);
        assertThat(notices.get(0)).contains("cannot be read").contains("HTTP 503");
        assertThat(notices.get(1)).isEqualTo("server figures: rabbitmq:" + url("") + " answers again");
        assertThat(rows(file).subList(1, rows(file).size()))
                .allSatisfy(r -> assertThat(r).endsWith(",rabbitmq,connections,0"));
    }
}
