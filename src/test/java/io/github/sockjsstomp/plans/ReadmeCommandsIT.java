package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.apps.SecuredChatApp;
import io.github.sockjsstomp.apps.SecuredChatApp.StompAuth;
import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.demo.DemoServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every headless JMeter command line of README.md and jmx/README.md, run as written through bash against the
 * server it names: the demo server (its login steps), Spring's greeting app (endpoint /gs-guide-websocket or
 * greetings.jmx's defaults), the Spring Security app (/chat-websocket) and ActiveMQ Artemis (port 61614). Only
 * the port (each server runs on a free one here) and the run's length (-J properties appended: later ones
 * win) change; a dead-clients line (silentShare) runs 15 s: its 200 sessions connect one after another per
 * thread (seconds on a busy machine), Artemis checks its connections' TTL every 2 s, and a silent session it
 * had not closed by the end would fail as NotExpired. RabbitMQ's lines (port 15674) have no broker here and
 * are only checked to parse.
 */
class ReadmeCommandsIT {

    private static final Pattern COMMAND = Pattern.compile("target/jmeter/bin/jmeter -n (?:[^`\\n\\\\]|\\\\\\n)+");
    private static final String SHORT =
            " -Jduration=3 -Jthreads=2 -JrampUp=0 -Jmessages=2 -JholdMillis=1500" + " -JpauseMillis=300";
    private static final String DEAD_CLIENTS_LENGTH = " -Jduration=15";

    @TempDir
    static Path dir;

    private static DemoServer demo;
    private static GreetingApp greetings;
    private static SecuredChatApp secured;
    private static ArtemisBroker artemis;

    @BeforeAll
    static void startServers() throws Exception {
        PlanRun.jmeterHome();
        demo = DemoServer.start(0);
        greetings = GreetingApp.start(false, 100);
        secured = SecuredChatApp.start(false, StompAuth.HANDSHAKE_AND_CSRF);
        artemis = ArtemisBroker.start(dir.resolve("artemis"), Map.of("guest", "guest"), 0);
    }

    @AfterAll
    static void stopServers() throws Exception {
        for (AutoCloseable server : new AutoCloseable[] {demo, greetings, secured, artemis}) {
            if (server != null) {
                server.close();
            }
        }
    }

    static Stream<String> commands() throws IOException {
        List<String> found = new ArrayList<>();
        for (String file : List.of("README.md", "jmx/README.md")) {
            Matcher matcher =
                    COMMAND.matcher(Files.readString(PlanRun.projectRoot().resolve(file), StandardCharsets.UTF_8));
            while (matcher.find()) {
                found.add(matcher.group()
                        .replace("\\\n", " ")
                        .replaceAll("\\s+", " ")
                        .trim());
            }
        }
        assertThat(found).as("command lines in the READMEs").hasSizeGreaterThanOrEqualTo(15);
        return found.stream();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void runsAsWritten(String command) throws Exception {
        Matcher host = Pattern.compile("-Jhost=(\\S+)").matcher(command);
        if (host.find() && !host.group(1).equals("127.0.0.1")) {
            return; // an example for a server elsewhere (TLS to stomp.example.com): no such server here
        }
        Integer port = portFor(command);
        if (port == null) {
            assertThat(command).as("a RabbitMQ line").contains("-Jport=15674");
            return;
        }
        Path work = Files.createTempDirectory(dir, "run-");
        // As a user types it, from the repository's root: jmx/ is there.
        Files.createSymbolicLink(work.resolve("jmx"), PlanRun.projectRoot().resolve("jmx"));
        Files.writeString(work.resolve("users.csv"), "login,passcode\nalice,alice-pass\nbob,bob-pass\n");
        String runnable = command.replace(
                                "target/jmeter/bin/jmeter",
                                PlanRun.jmeterHome().resolve("bin/jmeter").toString())
                        .replaceAll("-Jport=\\d+", "-Jport=" + port)
                + (command.contains("-Jport=") ? "" : " -Jport=" + port) + SHORT
                + (command.contains("-JsilentShare=") ? DEAD_CLIENTS_LENGTH : "")
                + " -j jmeter.log";
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", runnable)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("console.txt").toFile());
        builder.environment().put("HEAP", "-Xms256m -Xmx768m");
        int exit = PlanRun.waitFor(builder.start(), List.of(runnable), work.resolve("console.txt"));
        assertThat(exit).as(Files.readString(work.resolve("console.txt"))).isZero();
        List<Map<String, String>> rows = PlanRun.readCsv(work.resolve("results.jtl"));
        assertThat(rows)
                .as(runnable)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("success"))
                        .as("%s %s %s", r.get("label"), r.get("responseCode"), r.get("responseMessage"))
                        .isEqualTo("true"));
    }

    /** The server a command line is written for; null for RabbitMQ, which has no broker here. */
    private static Integer portFor(String command) {
        if (command.contains("-Jport=15674")) {
            return null;
        }
        if (command.contains("-Jport=61614")) {
            return artemis.port();
        }
        if (command.contains("/chat-websocket")) {
            return secured.port();
        }
        if (command.contains("/gs-guide-websocket") || command.contains("jmx/greetings.jmx")) {
            return greetings.port();
        }
        assertThat(command).as("a demo server line names its login steps").contains("-JindexPath=/index");
        return demo.port();
    }
}
