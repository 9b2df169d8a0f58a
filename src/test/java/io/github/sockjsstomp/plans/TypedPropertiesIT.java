package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing typed is ignored in silence, through a real JMeter: the send test run with a misspelt property, a
 * property of another plan and a misspelt JVM-wide setting says each once on the console at the start of the
 * run, with the nearest name send.jmx reads, and runs as before.
 */
class TypedPropertiesIT {

    @TempDir
    static Path dir;

    private static DemoServer demo;

    @BeforeAll
    static void startServer() {
        PlanRun.jmeterHome();
        demo = DemoServer.start(0);
    }

    @AfterAll
    static void stopServer() {
        if (demo != null) {
            demo.close();
        }
    }

    @Test
    void theSendTestSaysEachPropertyItDoesNotReadOnceWithTheNearestItReads() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("send"),
                "send",
                false,
                List.of(
                        "port=" + demo.port(),
                        "indexPath=/index",
                        "pullPath=/clientPull",
                        "threads=1",
                        "rampUp=0",
                        // 5 s on a loaded machine ended with the user connected and no message sent
                        "duration=10",
                        "sockjsstomp.warmUp=false",
                        "destinaton=/app/elsewhere",
                        "holdMillis=1500",
                        "sockjsstomp.warmup=true"));
        List<String> console = Files.readAllLines(run.dir().resolve("console.txt"));
        List<String> said =
                console.stream().filter(line -> line.startsWith("stomp: -J")).toList();
        assertThat(said)
                .containsExactly(
                        "stomp: -Jdestinaton=/app/elsewhere is not read by send.jmx: did you mean destination?",
                        "stomp: -JholdMillis=1500 is not read by send.jmx (another plan's property); the nearest it"
                                + " reads is tickMillis",
                        "stomp: -Jsockjsstomp.warmup=true is not a setting of the plugin: did you mean"
                                + " sockjsstomp.warmUp?");
        // The send test itself still sent to its own destination and every message was answered.
        assertThat(run.count("reply /app/echo"))
                .as("reply samples (one per message) among %s; console: %s", run.labels(), String.join("\n", console))
                .isPositive();
        assertThat(run.timing()).isNotEmpty().allSatisfy(r -> assertThat(r[6]).isEqualTo("/app/echo"));
        assertThat(run.timing()).allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
    }
}
