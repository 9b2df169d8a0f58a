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
import java.time.ZoneId;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
        return ServerFigures.start(
                new ServerFigures.Settings(SourceSpec.parseList(sources), 100, file), FIXED_COUNTS, notices::add);
    }

    /** A run of 7 sessions held and 0 messages sent, all along. */
    private static final RunCounts FIXED_COUNTS = new RunCounts() {
        @Override
        public long runId() {
            return 1795691463000L;
        }

        @Override
        public long sessionsHeld() {
            return 7;
        }

        @Override
        public long messagesSent() {
            return 0;
        }
    };

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

    private static List<String> rabbitRows(Path file) {
        return rows(file).stream().filter(r -> r.contains(",rabbitmq,")).toList();
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
        // nothing after the close: the poller's thread has ended (above), and the file refuses rows once closed (below)
    }

    @Test
    void theFileTakesNoRowOnceClosed() throws Exception {
        Path file = dir.resolve("closed.csv");
        ServerFiguresLog log = ServerFiguresLog.open(file);
        log.write(1L, "pid", List.of(new Figure("threads", 3)));
        log.close();
        log.write(2L, "pid", List.of(new Figure("threads", 4)));
        assertThat(rows(file)).containsExactly(ServerFiguresLog.HEADER, "1,pid,threads,3");
    }

    @Test
    void everyRoundBeginsWithTheGeneratorsRowAndTheCostLinesAreTheFilesReadings() throws Exception {
        AtomicLong held = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        RunCounts counts = new RunCounts() {
            @Override
            public long runId() {
                return 1795691463000L;
            }

            @Override
            public long sessionsHeld() {
                return held.get();
            }

            @Override
            public long messagesSent() {
                return sent.get();
            }
        };
        Path file = dir.resolve("server.csv");
        ServerFigures figures = ServerFigures.start(
                new ServerFigures.Settings(
                        SourceSpec.parseList("pid:" + ProcessHandle.current().pid()), 100, file),
                counts,
                notices::add);
        await(() -> pidRounds(file) >= 2, "two rounds before the first session");
        held.set(300);
        byte[][] sessions = new byte[300][];
        for (int i = 0; i < sessions.length; i++) {
            sessions[i] = new byte[64 * 1024];
        }
        long heldFrom = pidRounds(file);
        await(() -> pidRounds(file) >= heldFrom + 2, "two rounds with sessions held");
        sent.set(500);
        long sentFrom = pidRounds(file);
        await(() -> pidRounds(file) >= sentFrom + 2, "two rounds after messages were sent");
        figures.close();
        assertThat(sessions[299]).hasSize(64 * 1024);

        List<String> rows = rows(file);
        List<String> order = rows.subList(1, rows.size()).stream()
                .map(r -> r.split(",")[1] + "," + r.split(",")[2])
                .toList();
        assertThat(order.subList(0, 10))
                .as("a round: the generator's row, then the server's")
                .containsExactly(
                        "generator,run",
                        "generator,sessions_held",
                        "generator,messages_sent",
                        "generator,rss_bytes",
                        "generator,heap_used_bytes",
                        "pid,cpu_seconds",
                        "pid,rss_bytes",
                        "pid,threads",
                        "generator,run",
                        "generator,sessions_held");
        assertThat(rows.stream().filter(r -> r.contains(",generator,run,")))
                .allSatisfy(r -> assertThat(r).endsWith(",generator,run,1795691463000"));

        ZoneId zone = ZoneId.systemDefault();
        List<String> lines = figures.costLines();
        List<String> memory = ExpectedCosts.memoryFigures(file, zone);
        assertThat(memory)
                .as("this JVM's RSS as the pid's, and as the generator's RSS and heap")
                .hasSize(3);
        List<String> server = memory.stream().filter(m -> m.contains("(pid, ")).toList();
        List<String> generator =
                memory.stream().filter(m -> m.contains("(generator, ")).toList();
        assertThat(lines)
                .containsExactly(
                        "stomp server memory per held session: " + String.join("; ", server),
                        "stomp generator memory per held session: " + String.join("; ", generator),
                        "stomp server CPU per message: " + String.join("; ", ExpectedCosts.cpuFigures(file, zone)));
        assertThat(lines.get(0))
                .matches("stomp server memory per held session: -?[0-9.]+ (B|KB|MB) RSS \\(pid, .*"
                        + " with 0 held to .* with 300 held\\)");
        assertThat(lines.get(2))
                .matches("stomp server CPU per message: [0-9.]+ us \\(pid, [0-9.]+ s of CPU from .*, 500"
                        + " messages sent\\)");
    }

    private static long pidRounds(Path file) {
        return rows(file).stream().filter(r -> r.contains(",pid,threads,")).count();
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
        await(() -> rabbitRows(file).size() >= 2, "two polls answered");
        figures.close();

        assertThat(notices).hasSize(2);
        assertThat(notices.get(0)).contains("cannot be read").contains("HTTP 503");
        assertThat(notices.get(1)).isEqualTo("server figures: rabbitmq:" + url("") + " answers again");
        assertThat(rabbitRows(file)).allSatisfy(r -> assertThat(r).endsWith(",rabbitmq,connections,0"));
    }
}
