package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.apps.SecuredChatApp;
import io.github.sockjsstomp.apps.SecuredChatApp.StompAuth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plans against apps shaped like the ones users run, through a real JMeter, with -J host, port and
 * credentials only: Spring's STOMP getting-started app (plain WebSocket as published, and with SockJS on), and
 * a Spring Security app (form login, CSRF on, WebSocket message security on; a bearer-token variant).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SpringAppsIT {

    @TempDir
    static Path dir;

    /**
     * The apps, each started once for the tests that ask for the same one (a Boot app's start is seconds of CPU):
     * none of these tests leaves work behind in an app (a failed connect, or a few messages answered within the
     * run), so none sees another's, but the last three: the two wrong-payload tests and the late-replies test send
     * the guide's app more than it answers in their run (its backlog outlives the run), so they run last, in that order
     * (the late-replies test wants its messages answered late: a backlog before it only makes them later).
     */
    private static final Map<String, AutoCloseable> APPS = new HashMap<>();

    @AfterAll
    static void stopApps() throws Exception {
        for (AutoCloseable app : APPS.values()) {
            app.close();
        }
    }

    /** The guide's app, its 1 s pause before each greeting. */
    private static GreetingApp guideApp(boolean sockJs) {
        return (GreetingApp)
                APPS.computeIfAbsent("guide " + sockJs, k -> GreetingApp.start(sockJs, GreetingApp.GUIDE_DELAY_MILLIS));
    }

    private static SecuredChatApp securedApp(boolean sockJs, StompAuth stompAuth) {
        return (SecuredChatApp) APPS.computeIfAbsent(
                "secured " + sockJs + " " + stompAuth, k -> SecuredChatApp.start(sockJs, stompAuth));
    }

    /** The guide's app as published (a 1 s pause before each greeting): greetings.jmx needs host and port only. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void greetingsPlanWorksAgainstTheGuidesAppWithHostAndPortOnly(boolean sockJs) throws Exception {
        GreetingApp app = guideApp(sockJs);
        PlanRun run = PlanRun.runClean(
                dir.resolve("greetings-" + sockJs),
                "greetings",
                false,
                List.of("host=127.0.0.1", "port=" + app.port(), "messages=2", "holdMillis=3000", "rampUp=0"));
        List<String[]> timing = run.timing();
        long sent = run.books().sent();
        assertThat(sent).isEqualTo(4); // 2 threads x 2 messages
        assertThat(timing.stream().map(r -> r[2]).collect(Collectors.toSet())).hasSize((int) sent);
        assertThat(timing).allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
        assertThat(timing).as("a broadcast: each greeting reaches both users").hasSize(2 * (int) sent);
        assertThat(run.count("reply /app/hello"))
                .as("a row per copy received, as the timing log has a record for each")
                .isEqualTo(timing.size());
        assertThat(run.count("hello")).as("the greeters' own rows kept out").isZero();
        assertThat(connectMessages(run))
                .allSatisfy(
                        m -> assertThat(m).contains("CONNECTED over " + (sockJs ? "websocket" : "raw") + " (auto)"));
        assertThat(Files.readAllLines(run.dir().resolve("jmeter.log")).stream()
                        .filter(line -> line.contains("transport auto: ")))
                .as("named once in jmeter.log")
                .singleElement()
                .asString()
                .contains("uses " + (sockJs ? "websocket" : "raw"));
    }

    /** Form login, the CSRF token into CONNECT, a users file: every message answered to its own principal. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void formLoginWithCsrfAndAUsersFileAgainstASpringSecurityApp(boolean sockJs) throws Exception {
        Path users = Files.writeString(
                dir.resolve("users-" + sockJs + ".csv"),
                "login,passcode\nalice,alice-pass\nbob,bob-pass\nuser-3,pass-3\n");
        SecuredChatApp app = securedApp(sockJs, StompAuth.HANDSHAKE_AND_CSRF);
        PlanRun run = PlanRun.runClean(
                dir.resolve("secured-" + sockJs),
                "echo",
                false,
                secured(
                        app,
                        "usersFile=" + users,
                        "formLoginPath=/login",
                        sockJs ? "csrfPath=/chat" : "csrfPath=/csrf"));
        assertEveryEchoAnsweredToItsSender(run, Set.of("alice", "bob", "user-3"));
        assertThat(run.labels()).containsKeys("login", "csrf");
    }

    @Test
    void aBearerTokenPerUserOnTheConnectFrame() throws Exception {
        Path users =
                Files.writeString(dir.resolve("tokens.csv"), "alice,token-alice\nbob,token-bob\nuser-3,token-user-3\n");
        SecuredChatApp app = securedApp(false, StompAuth.CONNECT_HEADER);
        PlanRun run = PlanRun.runClean(
                dir.resolve("bearer"), "echo", false, secured(app, "usersFile=" + users, "bearerToken={{passcode}}"));
        assertEveryEchoAnsweredToItsSender(run, Set.of("alice", "bob", "user-3"));
    }

    /** Without the CSRF token, Spring's message security refuses CONNECT: the failure says what to set. */
    @Test
    void aRefusedConnectWithoutCsrfTokenSaysToSetCsrfPath() throws Exception {
        SecuredChatApp app = securedApp(false, StompAuth.HANDSHAKE_AND_CSRF);
        PlanRun run = PlanRun.run(
                dir.resolve("no-csrf"),
                "connect",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + app.port(),
                        "endpoint=" + SecuredChatApp.ENDPOINT,
                        "login=alice",
                        "passcode=alice-pass",
                        "formLoginPath=/login",
                        "threads=1",
                        "rampUp=0",
                        "duration=2"));
        assertThat(connectMessages(run))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m).contains("csrfPath"));
    }

    /** raw on a SockJS endpoint: the handshake is refused, and the failure names the endpoint's /websocket URL. */
    @Test
    void rawOnASockJsEndpointNamesItsWebsocketUrl() throws Exception {
        GreetingApp app = guideApp(true);
        PlanRun run = PlanRun.run(
                dir.resolve("raw-on-sockjs"),
                "connect",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + app.port(),
                        "endpoint=" + GreetingApp.ENDPOINT,
                        "transport=raw",
                        "threads=1",
                        "rampUp=0",
                        "duration=2"));
        assertThat(connectMessages(run))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m).contains("-Jendpoint=" + GreetingApp.ENDPOINT + "/websocket"));
    }

    /**
     * A run too short for the notice during the run (three greetings each, the last long before replyTimeoutMillis
     * has passed since the first): the notice comes once, at the end, after the final books. A count of messages,
     * not a duration, so a slow start on a loaded machine cannot leave the run without sends.
     */
    @Test
    @Order(Integer.MAX_VALUE - 2)
    void aRunShorterThanTheReplyTimeoutGetsTheHintAtItsEnd() throws Exception {
        GreetingApp app = guideApp(false);
        PlanRun run = PlanRun.run(
                dir.resolve("wrong-payload-short"),
                "greetings",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + app.port(),
                        "payload={\"text\":\"{{msgId}}\"}",
                        "messages=3",
                        "pauseMillis=100",
                        "holdMillis=0",
                        "rampUp=0",
                        "replyTimeoutMillis=4000"));
        List<String> console = Files.readAllLines(run.dir().resolve("console.txt"));
        int books = console.indexOf(console.stream()
                .filter(line -> line.startsWith("stomp replies ="))
                .reduce((first, second) -> second)
                .orElseThrow());
        assertThat(console.indexOf(theOneNoReplyHint(console)))
                .as("said with the final books")
                .isGreaterThan(books);
        assertThat(run.timing()).noneSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
    }

    /**
     * send.jmx's default payload has no "name" for the guide's controller: the replies (if any) carry no id,
     * nothing is answered, and the run says so once on the console instead of only counting LOST messages (during
     * the run; at its end if a slow start on a loaded machine left less than replyTimeoutMillis of sending).
     */
    @Test
    @Order(Integer.MAX_VALUE - 1)
    void aPayloadTheServerCannotAnswerGetsOneHintNamingDestinationSubscriptionAndPayload() throws Exception {
        GreetingApp app = guideApp(false);
        PlanRun run = PlanRun.run(
                dir.resolve("wrong-payload"),
                "send",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + app.port(),
                        "endpoint=" + GreetingApp.ENDPOINT,
                        "destination=/app/hello",
                        "subscribeTo=/topic/greetings",
                        "threads=1",
                        "rampUp=0",
                        "duration=6",
                        "messagesPerSecond=5",
                        "replyTimeoutMillis=1000"));
        theOneNoReplyHint(Files.readAllLines(run.dir().resolve("console.txt")));
    }

    /** The console's one notice of a sender none of whose messages was answered, naming what to check. */
    private static String theOneNoReplyHint(List<String> console) {
        List<String> hints = console.stream()
                .filter(line -> line.contains("none was answered"))
                .toList();
        assertThat(hints)
                .singleElement()
                .asString()
                .contains("'/app/hello'")
                .contains("/topic/greetings")
                .contains("payload");
        return hints.get(0);
    }

    /**
     * Sent faster than the app answers (its inbound channel's threads sleep a second per greeting): the LOST
     * messages' replies came late, and the end of the run says so, on the console and in the books, with how long
     * after their send (before issue 29 the books said "up to 0 ms after their send").
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void repliesThatCameAfterTheirMessageWasLostAreSaidToBeLateNotMissing() throws Exception {
        GreetingApp app = guideApp(false);
        PlanRun run = PlanRun.run(
                dir.resolve("late"),
                "send",
                false,
                List.of(
                        "host=127.0.0.1",
                        "port=" + app.port(),
                        "endpoint=" + GreetingApp.ENDPOINT,
                        "destination=/app/hello",
                        "subscribeTo=/topic/greetings",
                        "payload={\"name\":\"{{msgId}}\"}",
                        "threads=2",
                        "rampUp=0",
                        "duration=8",
                        "messagesPerSecond=20",
                        "replyTimeoutMillis=1500"));
        List<String> totals = Files.readAllLines(run.dir().resolve("console.txt")).stream()
                .filter(line -> line.startsWith("stomp replies ="))
                .toList();
        assertThat(totals).isNotEmpty();
        assertThat(totals.get(totals.size() - 1))
                .containsPattern("lost [1-9]\\d* \\(\\d+ replies came after "
                        + "their message was LOST, up to [\\d.]+ s after the send: the server fell behind\\)");
        PlanRun.BooksLine books = run.books();
        assertThat(books.lateReplies()).as("late replies: %s", books.line()).isPositive();
        assertThat(books.lateMaxMillis())
                .as("later than replyTimeoutMillis after their send: %s", books.line())
                .isGreaterThan(1500);
    }

    /** A plan with another app's endpoint (the demo's /ws): the failure says nothing answers there. */
    @Test
    void anEndpointThatIsNotThereSaysSo() throws Exception {
        GreetingApp app = guideApp(false);
        PlanRun run = PlanRun.run(
                dir.resolve("no-endpoint"),
                "connect",
                false,
                List.of("host=127.0.0.1", "port=" + app.port(), "threads=1", "rampUp=0", "duration=2"));
        assertThat(connectMessages(run))
                .isNotEmpty()
                .allSatisfy(
                        m -> assertThat(m).contains("nothing answers at /ws").contains("-Jendpoint"));
    }

    private static List<String> secured(SecuredChatApp app, String... more) {
        List<String> all = new ArrayList<>(List.of(
                "host=127.0.0.1",
                "port=" + app.port(),
                // SecuredChatApp.ENDPOINT as README.md writes it (ReadmeCommandsIT.PLAN_IT_RUNS finds it here)
                "endpoint=/chat-websocket",
                "destination=/app/echo",
                "subscribeTo=/user/queue/echo",
                "replySamples=false",
                "threads=3",
                "rampUp=0",
                // a form login, a CSRF fetch and a connect per user took all of 4 s on a loaded machine (no echo)
                "duration=8",
                "pauseMillis=200"));
        all.addAll(Arrays.asList(more));
        return all;
    }

    private static void assertEveryEchoAnsweredToItsSender(PlanRun run, Set<String> logins) throws Exception {
        long echoes = run.count("echo");
        assertThat(echoes).as("echo samples in %s", run.labels()).isPositive();
        List<String[]> timing = run.timing();
        assertThat(timing).hasSize((int) echoes).allSatisfy(r -> {
            assertThat(r[1]).isEqualTo("ANSWERED");
            assertThat(r[5]).as("the reply came to the sender's own session").isEqualTo(r[4]);
        });
        assertThat(timing.stream().map(r -> r[4]).collect(Collectors.toSet())).isEqualTo(logins);
    }

    private static List<String> connectMessages(PlanRun run) {
        return run.rows().stream()
                .filter(r -> r.get("label").equals("connect"))
                .map(r -> r.get("responseMessage"))
                .toList();
    }

    static Map<String, Long> labels(PlanRun run) {
        return run.labels();
    }
}
