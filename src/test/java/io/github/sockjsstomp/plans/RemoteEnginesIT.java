package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter's distributed mode as users run it: two engines ({@code jmeter -s}) on loopback ports, RMI over
 * plain sockets (server.rmi.ssl.disable, for the test only), and a controller that runs jmx/send.jmx on both
 * with -G properties. Each engine must write its own timing log, with its own message ids, and the books of
 * both must balance. The run steps its rate ({@code -Gsteps}, send.jmx's default start {@code online}: each engine
 * begins when its own users are): each engine writes its own steps log, whose books per step are that engine's
 * timing log's messages sent in the hold, and the engines' steps are the same plan (the same steps, ramps and holds).
 */
class RemoteEnginesIT {

    private static final long TIMEOUT_SECONDS = 180;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    private static Path jmeterHome;
    private static Path projectRoot;
    private static final List<Process> engines = new ArrayList<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        jmeterHome = Path.of(System.getProperty("jmeter.home", "target/jmeter")).toAbsolutePath();
        projectRoot = Path.of(System.getProperty("project.root", ".")).toAbsolutePath();
    }

    @AfterAll
    static void stopEngines() {
        engines.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        });
    }

    @Test
    void twoEnginesWriteOneTimingLogEachWithBalancedBooks() throws Exception {
        List<String> names = new ArrayList<>();
        List<Path> consoles = new ArrayList<>();
        for (int n = 1; n <= 2; n++) {
            Engine engine = startEngine(n);
            names.add("127.0.0.1:" + engine.port());
            consoles.add(engine.console());
        }
        Path timingLog = dir.resolve("timing.csv");
        List<String> command = new ArrayList<>(List.of(
                jmeterHome.resolve("bin/jmeter").toString(),
                "-n",
                "-t",
                projectRoot.resolve("jmx/send.jmx").toString(),
                "-R",
                String.join(",", names),
                "-Jserver.rmi.ssl.disable=true",
                "-l",
                dir.resolve("results.jtl").toString(),
                "-j",
                dir.resolve("controller.log").toString(),
                "-Gport=" + demo.port(),
                "-GindexPath=/index",
                "-GpullPath=/clientPull",
                "-GtimingLog=" + timingLog,
                "-Gthreads=2",
                "-GrampUp=0",
                // 5 then 10 msg/s per engine, 1 s ramp + 2 s hold each; the steps end the test
                "-Gsteps=5,10",
                "-GstepRampSeconds=1",
                "-GstepHoldSeconds=2",
                "-GsloP99Millis=2000",
                "-GstepsLog=" + dir.resolve("steps.csv"),
                "-GreplyTimeoutMillis=3000",
                "-Gdestinaton=/app/elsewhere",
                // the engines' warm-up would come out of the 6 s (see PlanRun)
                "-G" + PlanRun.WARM_UP + "=false",
                "-X"));
        Path console = dir.resolve("controller.txt");
        Process controller = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        controller.getOutputStream().close();
        if (!controller.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            controller.destroyForcibly();
            fail("controller still running; output: %s", Files.readString(console));
        }
        assertThat(controller.exitValue()).as(Files.readString(console)).isZero();
        for (Path engineConsole : consoles) {
            // A misspelt -G property is said on each engine's console, where the samplers run.
            assertThat(Files.readString(engineConsole))
                    .contains("stomp: -Gdestinaton=/app/elsewhere is not read by send.jmx: did you mean destination?")
                    // and its steps, one line each as they end, where its operator watches it
                    .contains("stomp step 1 of 2: 5 msg/s held")
                    .contains("stomp step 2 of 2: 10 msg/s held");
        }

        assertThat(timingLog).as("no engine writes the configured name itself").doesNotExist();
        Set<String> prefixes = new HashSet<>();
        List<List<String>> stepsPerEngine = new ArrayList<>();
        for (String name : names) {
            Path own = dir.resolve("timing-" + name.replace(':', '_') + ".csv");
            assertThat(own).as(own.toString()).exists();
            List<String[]> records = Files.readAllLines(own, StandardCharsets.UTF_8).stream()
                    .skip(1)
                    .map(line -> line.split(",", -1))
                    .toList();
            assertThat(records)
                    .as(own.toString())
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"));
            Set<String> ownPrefixes = records.stream()
                    .map(r -> r[2].substring(0, r[2].indexOf('-')))
                    .collect(Collectors.toSet());
            assertThat(ownPrefixes).as("one generator per log").hasSize(1);
            prefixes.addAll(ownPrefixes);
            // Each engine keeps its own books, in its own log.
            Path engineLog = dir.resolve("engine-" + (names.indexOf(name) + 1)).resolve("jmeter-server.log");
            BooksLine books = BooksLine.in(Files.readString(engineLog), engineLog.toString());
            assertThat(books.allAnswered(records.size())).as(books.line()).isTrue();
            stepsPerEngine.add(engineSteps(dir.resolve("steps-" + name.replace(':', '_') + ".csv"), records));
        }
        assertThat(prefixes).as("the two engines' message ids").hasSize(2);
        // the steps aligned: both engines ran the same steps, each ramp and hold as long as the other engine's
        assertThat(stepsPerEngine.get(0))
                .isEqualTo(stepsPerEngine.get(1))
                .containsExactly("1 5 1000 2000", "2 10 1000 2000");
    }

    /**
     * An engine's steps log: two steps held, each step's books that engine's timing log's records sent in its hold
     * (all answered, the run's books said so); returns each step as {@code step offered ramp_ms hold_ms}.
     */
    private static List<String> engineSteps(Path stepsLog, List<String[]> records) throws IOException {
        assertThat(stepsLog).as("each engine writes its own steps log").exists();
        List<List<String>> rows = PlanRun.parseCsv(Files.readString(stepsLog));
        List<String> header = rows.get(0);
        List<String> steps = new ArrayList<>();
        long inHolds = 0;
        for (List<String> row : rows.subList(1, rows.size())) {
            Function<String, String> cell = c -> row.get(header.indexOf(c));
            assertThat(cell.apply("verdict")).as(String.join(",", row)).isEqualTo("held");
            long from = Long.parseLong(cell.apply("hold_start_epoch_ms"));
            long until = Long.parseLong(cell.apply("end_epoch_ms"));
            long sent = records.stream()
                    .filter(r -> Long.parseLong(r[0]) >= from && Long.parseLong(r[0]) < until)
                    .count();
            assertThat(cell.apply("sent")).as(String.join(",", row)).isEqualTo(Long.toString(sent));
            assertThat(cell.apply("answered")).isEqualTo(Long.toString(sent));
            assertThat(sent).isPositive();
            inHolds += sent;
            long ramp = from - Long.parseLong(cell.apply("ramp_start_epoch_ms"));
            steps.add(cell.apply("step") + " " + cell.apply("offered") + " " + ramp + " " + (until - from));
        }
        assertThat(inHolds).isLessThanOrEqualTo(records.size());
        return steps;
    }

    /** A running engine: its RMI registry's port and the console of the attempt that started. */
    private record Engine(int port, Path console) {}

    /**
     * Starts engine n on two free loopback ports (its RMI registry, its remote object) and returns the registry's
     * port with the console it prints to. A port found free can be taken by another process (tests side by side,
     * their outgoing connections) before the engine binds it: an engine that could not bind starts again on new
     * ports, each attempt with a console of its own ({@code console-<attempt>.txt}), the one returned the live one.
     */
    private static Engine startEngine(int n) throws Exception {
        Path engineDir = Files.createDirectories(dir.resolve("engine-" + n));
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            Path console = engineDir.resolve("console-" + attempt + ".txt");
            Process engine = startEngine(engineDir, console, port, freePort());
            engines.add(engine);
            String printed = "";
            for (int i = 0; i < 600 && engine.isAlive() && !printed.contains("already in use"); i++) {
                printed = Files.exists(console) ? Files.readString(console) : "";
                if (printed.contains("Created remote object")) {
                    return new Engine(port, console);
                }
                Thread.sleep(100);
            }
            printed = Files.readString(console);
            if (attempt == 3 || !printed.contains("already in use")) {
                fail("engine %d not ready (attempt %d): %s", n, attempt, printed);
            }
            engine.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Process startEngine(Path engineDir, Path console, int port, int rmiPort) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                        jmeterHome.resolve("bin/jmeter").toString(),
                        "-s",
                        "-Jserver.rmi.ssl.disable=true",
                        "-Jserver_port=" + port,
                        "-Jserver.rmi.localport=" + rmiPort,
                        "-j",
                        engineDir.resolve("jmeter-server.log").toString())
                .directory(engineDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile());
        builder.environment()
                .putAll(Map.of(
                        "HEAP",
                        "-Xms256m -Xmx512m",
                        "JVM_ARGS",
                        "-Djava.rmi.server.hostname=127.0.0.1 -Dsockjsstomp.logfile="
                                + engineDir.resolve("sockjs-stomp.log") + " " + PlanRun.tmpDirArgument()));
        return builder.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
