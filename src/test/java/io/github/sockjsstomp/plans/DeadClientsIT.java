package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.broker.ArtemisBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dead clients through a real JMeter: connect.jmx with {@code silentShare} and {@code silentAfterSeconds} against a
 * broker that expires clients whose heart-beats stop (ActiveMQ Artemis over a plain WebSocket; Spring's
 * simple broker with heart-beats over SockJS) and against one that never expires anything (the same app, with
 * no heart-beats asked for by the client). Exact counts of {@code expired} samples and their response codes, the
 * users they name and the run's closing figures; never durations.
 */
class DeadClientsIT {

    @TempDir
    static Path dir;

    /**
     * The guide's app over SockJS, its simple broker heart-beating every 200 ms: started once for both tests that
     * need it (a Boot app's start is seconds of CPU). A session's heart-beats are what its CONNECT and the broker
     * agree on: with the client's 0,0 there are none, and the broker never expires that session.
     */
    private static GreetingApp heartBeatingApp;

    private static synchronized GreetingApp heartBeatingApp() {
        if (heartBeatingApp == null) {
            heartBeatingApp = GreetingApp.start(true, 0, 200);
        }
        return heartBeatingApp;
    }

    @AfterAll
    static void stopApp() {
        if (heartBeatingApp != null) {
            heartBeatingApp.close();
        }
    }

    @Test
    void artemisClosesEverySilentSessionOnceItsHeartBeatsStop() throws Exception {
        try (ArtemisBroker broker = ArtemisBroker.start(dir.resolve("artemis"), Map.of("guest", "guest"), 0)) {
            PlanRun run = PlanRun.runClean(
                    dir.resolve("artemis-run"),
                    "connect",
                    false,
                    List.of(
                            "host=127.0.0.1",
                            "port=" + broker.port(),
                            "transport=raw",
                            "endpoint=/",
                            "login=guest",
                            "passcode=guest",
                            "users=6",
                            "threads=2",
                            "rampUp=0",
                            // Artemis looks at its connections' TTL every 2 s: at 7 s, with the connects slowed to
                            // 1.1 s each by a loaded machine, sessions silent for 2.9 s were not closed yet by the end
                            "duration=10",
                            "aliveMillis=200",
                            "heartbeatMillis=300",
                            "silentShare=0.5",
                            "silentAfterSeconds=0.5"));
            // users 1 to 6 at a half: every second one
            assertExpired(run, "200", "users #2", "users #4", "users #6");
            assertThat(run.count("session")).isEqualTo(6);
            assertThat(aliveMessages(run)).last().asString().contains("gone silent");
            assertThat(Files.readString(run.dir().resolve("console.txt")))
                    .contains("stomp sessions: 6 held at peak; 6 connects")
                    .contains("3 went silent: 3 expired")
                    .contains("; 0 not expired");
        }
    }

    /** Spring's simple broker closes a session after three heart-beat intervals with nothing from its client. */
    @Test
    void springsSimpleBrokerWithHeartBeatsClosesSilentSessionsOverSockJs() throws Exception {
        GreetingApp app = heartBeatingApp();
        PlanRun run = PlanRun.runClean(
                dir.resolve("simple-broker"),
                "connect",
                false,
                greeting(
                        app,
                        "transport=websocket",
                        "threads=4",
                        "rampUp=0",
                        "duration=8",
                        "aliveMillis=200",
                        "heartbeatMillis=200",
                        "silentShare=0.25",
                        "silentAfterSeconds=0.3"));
        assertExpired(run, "200", "users #4");
        assertThat(Files.readString(run.dir().resolve("jmeter.log")))
                .contains("1 went silent: 1 expired, no removed/s (one event)");
    }

    /**
     * Without heart-beats (the broker offers them, the client none: none agreed) nothing tells the server a client
     * is gone: every silent session outlives the test, and the console says why to expect that.
     */
    @Test
    void aServerThatNeverExpiresLeavesEverySilentSessionNotExpired() throws Exception {
        GreetingApp app = heartBeatingApp();
        PlanRun run = PlanRun.run(
                dir.resolve("never"),
                "connect",
                false,
                greeting(
                        app,
                        "users=3",
                        "threads=1",
                        "rampUp=0",
                        // Long enough for the three connects and their silence on a loaded machine (without
                        // the warm-up, C1 only): at 3 s a full suite run once ended before they went silent; 8 s
                        // leaves 5 s and more for a slow start (the suite's four forks on two cores).
                        "duration=8",
                        "aliveMillis=200",
                        "heartbeatMillis=0",
                        "silentShare=1",
                        "silentAfterSeconds=0.2"));
        assertExpired(run, "NotExpired", "users #1", "users #2", "users #3");
        assertThat(run.rows())
                .filteredOn(r -> !r.get("label").equals("expired"))
                .allSatisfy(r -> assertThat(r.get("success")).as(r.toString()).isEqualTo("true"));
        assertThat(run.rows())
                .filteredOn(r -> r.get("label").equals("expired"))
                .allSatisfy(r -> assertThat(r.get("threadName")).startsWith("expiry"));
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("3 went silent: 0 expired; 3 not expired")
                .contains("stomp: silentShare=1.0 with heartbeatMillis=0: the client offers no heart-beats");
    }

    @Test
    void aShareAboveOneStopsTheTestWithAConfigErrorNamingIt() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("bad-share"),
                "connect",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=9",
                        "threads=1",
                        "rampUp=0",
                        "duration=3",
                        "silentShare=1.5",
                        "silentAfterSeconds=-1"));
        assertThat(run.rows()).singleElement().satisfies(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage"))
                    .contains("Parameter 'silentShare' has value '1.5'")
                    .contains("Parameter 'silentAfterSeconds' has value '-1'");
        });
    }

    private static List<String> greeting(GreetingApp app, String... more) {
        List<String> properties =
                new ArrayList<>(List.of("host=127.0.0.1", "port=" + app.port(), "endpoint=" + GreetingApp.ENDPOINT));
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    /** One {@code expired} row per named user, each with this response code, and no other. */
    private static void assertExpired(PlanRun run, String code, String... users) {
        List<Map<String, String>> expired = run.rows().stream()
                .filter(r -> r.get("label").equals("expired"))
                .toList();
        assertThat(expired)
                .as("expired rows")
                .hasSize(users.length)
                .allSatisfy(r -> assertThat(r.get("responseCode"))
                        .as(r.get("responseMessage"))
                        .isEqualTo(code));
        for (String user : users) {
            assertThat(expired)
                    .as(user)
                    .filteredOn(r -> r.get("responseMessage").startsWith(user + " ")
                            || r.get("responseMessage").contains(" after " + user + " went silent"))
                    .hasSize(1);
        }
    }

    private static List<String> aliveMessages(PlanRun run) {
        return run.rows().stream()
                .filter(r -> r.get("label").equals("session alive"))
                .map(r -> r.get("responseMessage"))
                .toList();
    }
}
