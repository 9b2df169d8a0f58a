package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The handshake as a browser's page makes it, against Spring's getting-started app as published (Tomcat, which
 * accepts compression, and Spring's same-origin check, which refuses a foreign Origin): through JMeter, the run
 * says what the server agreed on and counts it at its end.
 */
class BrowserHandshakeIT {

    @TempDir
    static Path dir;

    private static GreetingApp raw;
    private static GreetingApp sockJs;

    @BeforeAll
    static void start() {
        raw = GreetingApp.start(false, 0);
        sockJs = GreetingApp.start(true, 0);
    }

    @AfterAll
    static void stop() {
        raw.close();
        sockJs.close();
    }

    private static GreetingApp app(boolean overSockJs) {
        return overSockJs ? sockJs : raw;
    }

    /** Compression as browsers offer it, by default: agreed, said once, counted; every greeting answered. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theGuidesAppAgreesOnCompressionByDefault(boolean overSockJs) throws Exception {
        GreetingApp app = app(overSockJs);
        PlanRun run = PlanRun.runClean(
                dir.resolve("deflate-" + overSockJs),
                "greetings",
                false,
                List.of("host=127.0.0.1", "port=" + app.port(), "messages=3", "holdMillis=2000", "rampUp=0"));
        String console = Files.readString(run.dir().resolve("console.txt"));
        String url = "http://127.0.0.1:" + app.port() + GreetingApp.ENDPOINT;
        assertThat(console.lines().filter(line -> line.contains(" agreed on ")))
                .singleElement()
                .asString()
                .startsWith("WebSocket sessions to " + url + " agreed on permessage-deflate")
                .contains("(offered: permessage-deflate; client_max_window_bits)");
        assertThat(console).contains("websocket extensions: 2 sessions permessage-deflate");
        assertThat(run.books().sent()).isEqualTo(6);
        assertThat(run.timing()).allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
    }

    @Test
    void compressionOffAgreesOnNone() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("plain"),
                "greetings",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + raw.port(),
                        "messages=2",
                        "holdMillis=2000",
                        "rampUp=0",
                        "compression=off"));
        String console = Files.readString(run.dir().resolve("console.txt"));
        assertThat(console)
                .contains("agreed on none (offered: off)")
                .contains("websocket extensions: 2 sessions none")
                .doesNotContain("permessage-deflate");
        assertThat(run.timing()).allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
    }

    /**
     * Spring's allowed origins: the default Origin (the server's own, as a page it served sends) passes above; a
     * page served from elsewhere is refused, and the console says the server's status and what to set.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aForeignOriginIsRefusedAndTheConsoleSaysWhatToSet(boolean overSockJs) throws Exception {
        GreetingApp app = app(overSockJs);
        PlanRun run = PlanRun.run(
                dir.resolve("origin-" + overSockJs),
                "connect",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + app.port(),
                        "endpoint=" + GreetingApp.ENDPOINT,
                        "indexPath=none",
                        "pullPath=none",
                        "transport=" + (overSockJs ? "websocket" : "raw"),
                        "handshakeHeaders=Origin:https://app.example.com",
                        "threads=1",
                        "rampUp=0",
                        "duration=2"));
        String console = Files.readString(run.dir().resolve("console.txt"));
        assertThat(console)
                .contains("stomp connects failed: ")
                .contains("403")
                .contains("refused the handshake's Origin https://app.example.com")
                .contains("handshakeHeaders=Origin:");
    }
}
