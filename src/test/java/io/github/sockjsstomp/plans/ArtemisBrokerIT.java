package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plans against a STOMP broker nobody here wrote (ActiveMQ Artemis, embedded, STOMP over plain WebSocket,
 * credentials enforced), run by the real JMeter launcher with {@code -J} options only, as a user would type
 * them. Counts and contents only.
 */
class ArtemisBrokerIT {

    private static final Map<String, String> USERS =
            Map.of("guest", "guest", "alice", "a-pass", "bob", "b-pass", "carol", "c-pass");
    /** chat.jmx names its users itself (sender-N, receiver-N) and gives them one passcode. */
    private static final List<String> CHAT_USERS = List.of("sender-1", "sender-2", "receiver-1", "receiver-2");

    @TempDir
    static Path dir;

    private static ArtemisBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        PlanRun.jmeterHome();
        Map<String, String> users = new HashMap<>(USERS);
        CHAT_USERS.forEach(login -> users.put(login, "chat-pass"));
        broker = ArtemisBroker.start(dir.resolve("artemis"), users, 0);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    /** What a user writes to point a plan at a plain-WebSocket STOMP broker with no HTTP login steps. */
    private static List<String> artemis(String... more) {
        List<String> properties = broker.planProperties("replySamples=false");
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    @Test
    void echoWithOneLoginForEveryUserAndAQueuePerUser() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("echo"),
                "echo",
                false,
                artemis(
                        "threads=3",
                        "rampUp=0",
                        "duration=8",
                        "pauseMillis=100",
                        "login=guest",
                        "passcode=guest",
                        "destination=/queue/echo.{{userNumber}}",
                        "subscribeTo=/queue/echo.{{userNumber}}",
                        "replyTimeoutMillis=3000"));
        List<String[]> timing = run.timing();
        assertThat(timing)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"));
        assertThat(column(timing, 4)).containsExactly("guest");
        assertThat(column(timing, 6)).containsExactlyInAnyOrder("/queue/echo.1", "/queue/echo.2", "/queue/echo.3");
        assertThat(timing).allSatisfy(r -> assertThat(r[9]).isEqualTo("await-reply"));
        assertThat(run.count("echo")).isEqualTo(timing.size());
        assertBooks(run, timing.size(), timing.size(), 0, 0);
    }

    @Test
    void sendAtATargetRateWithEachUsersOwnCredentialsFromACsvFile() throws Exception {
        Path users = Files.writeString(dir.resolve("users.csv"), "login,passcode\nalice,a-pass\nbob,b-pass\n");
        PlanRun run = PlanRun.runClean(
                dir.resolve("send"),
                "send",
                false,
                artemis(
                        "threads=2",
                        "rampUp=0",
                        "duration=8",
                        "messagesPerSecond=20",
                        "usersFile=" + users,
                        "destination=/queue/orders.{{login}}",
                        "subscribeTo=/queue/orders.{{login}}",
                        "replyTimeoutMillis=3000"));
        List<String[]> timing = run.timing();
        assertThat(timing)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"));
        assertThat(column(timing, 4)).containsExactlyInAnyOrder("alice", "bob");
        assertThat(column(timing, 6)).containsExactlyInAnyOrder("/queue/orders.alice", "/queue/orders.bob");
        assertThat(timing).allSatisfy(r -> assertThat(r[9]).isEqualTo("fire-and-forget"));
        assertThat(run.count("send")).isEqualTo(timing.size());
        assertBooks(run, timing.size(), timing.size(), 0, 0);
    }

    /**
     * jmx/README.md's chat on a broker: sender N sends to receiver N's queue ({@code {{userNumber}}} counts from 1
     * in each thread group), so with as many senders as receivers each receiver gets exactly the messages the plan
     * has it wait for; the latency is taken at the receiver.
     */
    @Test
    void chatWithEachSenderWritingToItsReceiversQueue() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("chat"),
                "chat",
                false,
                broker.planProperties(
                        "senders=2",
                        "receivers=2",
                        "messages=3",
                        "pauseMillis=100",
                        "passcode=chat-pass",
                        "destination=/queue/chat.{{userNumber}}",
                        "receiverSubscribeTo=/queue/chat.{{userNumber}}",
                        "replyTimeoutMillis=3000"));
        assertThat(run.count("reply /queue/chat.{{userNumber}}"))
                .as("a row per message, under the destination as written")
                .isEqualTo(6);
        assertThat(run.count("chat send") + run.count("chat receive"))
                .as("the senders' and receivers' own rows kept out")
                .isZero();
        List<String[]> timing = run.timing();
        assertThat(timing)
                .hasSize(6)
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"));
        assertThat(timing.stream().map(r -> r[4] + ">" + r[5] + " " + r[6]).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("sender-1>receiver-1 /queue/chat.1", "sender-2>receiver-2 /queue/chat.2");
        assertBooks(run, 6, 6, 0, 0);
    }

    @Test
    void connectHoldsSessionsSubscribedToATopic() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("connect"),
                "connect",
                false,
                artemis(
                        "users=6",
                        "threads=2",
                        "rampUp=0",
                        "duration=6",
                        "aliveMillis=300",
                        "login=guest",
                        "passcode=guest",
                        "heartbeatMillis=1000",
                        "subscribeTo=/topic/news"));
        assertThat(run.count("session")).isEqualTo(6);
        assertThat(run.count("subscribe")).isEqualTo(6);
        assertThat(run.rows().stream().filter(r -> r.get("label").equals("session alive")))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("responseMessage")).startsWith("3 sessions alive"));
    }

    /**
     * subscribeHeaders reach the broker: Artemis makes each user's SUBSCRIBE a durable subscription of its own
     * (queue {@code <client-id>.<durable-subscription-name>}), which outlives the session, where a subscription
     * without them is a temporary queue that goes with it. jmx/README.md's Artemis line.
     */
    @Test
    void subscribeHeadersGiveEachUserADurableSubscriptionAtTheBroker() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("durable"),
                "connect",
                false,
                artemis(
                        "users=4",
                        "threads=2",
                        "rampUp=0",
                        // room for a slow start: at 4 s a busy machine connected 2 of the 4 before the end
                        "duration=10",
                        "aliveMillis=300",
                        "login=guest",
                        "passcode=guest",
                        "connectHeaders=client-id:bench",
                        "subscribeTo=/topic/prices",
                        "subscribeHeaders=durable-subscription-name:sub.{{userNumber}};subscription-type:MULTICAST"));
        assertThat(run.count("session")).isEqualTo(4);
        assertThat(run.rows().stream().filter(r -> r.get("label").equals("subscribe")))
                .hasSize(4)
                .allSatisfy(r -> assertThat(r.get("responseMessage"))
                        .startsWith("SUBSCRIBE /topic/prices (durable-subscription-name:sub.")
                        .endsWith(";subscription-type:MULTICAST)"));
        assertThat(broker.queuesBoundTo("prices"))
                .as("a durable queue per user, after the sessions closed")
                .isEqualTo(Map.of("bench.sub.1", true, "bench.sub.2", true, "bench.sub.3", true, "bench.sub.4", true));
    }

    @Test
    void aSubscribeHeaderWithoutItsColonIsAConfigErrorNamingIt() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("bad-subscribe-header"),
                "connect",
                false,
                artemis(
                        "threads=1",
                        "rampUp=0",
                        "duration=60",
                        "login=guest",
                        "passcode=guest",
                        "subscribeTo=/topic/prices",
                        "subscribeHeaders=prefetch-count"));
        assertThat(run.rows()).singleElement().satisfies(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage"))
                    .contains("Parameter 'subscribeHeaders' has value 'prefetch-count'")
                    .contains("expected name:value");
        });
    }

    @Test
    void refusedCredentialsFailEveryConnectAtOnceWithTheBrokersWords() throws Exception {
        PlanRun run = PlanRun.run(
                dir.resolve("refused"),
                "connect",
                false,
                artemis(
                        "threads=2",
                        "rampUp=0",
                        "duration=4",
                        "aliveMillis=1000",
                        "login=guest",
                        "passcode=wrong",
                        "connectTimeoutMillis=120000"));
        List<Map<String, String>> sessions = run.rows().stream()
                .filter(r -> r.get("label").equals("session"))
                .toList();
        assertThat(sessions).hasSizeGreaterThanOrEqualTo(2).allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("false");
            assertThat(r.get("responseCode")).isEqualTo("StompError");
            assertThat(r.get("responseMessage"))
                    .containsIgnoringCase("security")
                    .contains("guest");
        });
        // JMeter itself logs each -J property it sets; nothing else may show the passcode.
        assertThat(Files.readAllLines(run.dir().resolve("jmeter.log")).stream()
                        .filter(line -> !line.contains("Setting JMeter property")))
                .noneMatch(line -> line.contains("wrong"));
    }

    /**
     * The broker stopped under load and started again on the same port: samples fail with codes users can
     * filter on while it is down, the senders reconnect by themselves after, and the books balance.
     */
    @Test
    void sendSurvivesTheBrokerStoppedAndRestartedMidRun() throws Exception {
        Path data = dir.resolve("artemis-restarted");
        ArtemisBroker own = ArtemisBroker.start(data, USERS, LoopbackPorts.forRestart());
        int port = own.port();
        List<String> properties = new ArrayList<>(artemis(
                "threads=2",
                "rampUp=0",
                "duration=14",
                "messagesPerSecond=20",
                "login=guest",
                "passcode=guest",
                "destination=/queue/restart.{{userNumber}}",
                "subscribeTo=/queue/restart.{{userNumber}}",
                "replyTimeoutMillis=1500",
                "connectTimeoutMillis=2000",
                "heartbeatMillis=1000",
                // reconnects every 0.5-2 s: the default backoff (1 s doubling to 30 s) may wait past the run's end
                "sockjsstomp.reconnectMinMillis=500",
                "sockjsstomp.reconnectMaxMillis=2000"));
        properties.set(1, "port=" + port);
        PlanRun.Launch launch = PlanRun.launch(dir.resolve("restart"), "send", false, properties);
        PlanRun run;
        try {
            launch.awaitTimingRecords(10);
        } finally {
            own.close();
        }
        Thread.sleep(3000); // down long enough for samples to fail and reconnects to be refused
        try (ArtemisBroker restarted = ArtemisBroker.start(data, USERS, port)) {
            run = launch.await();
        }
        List<Map<String, String>> rows = run.rows().stream()
                .sorted((a, b) -> Long.compare(Long.parseLong(a.get("timeStamp")), Long.parseLong(b.get("timeStamp"))))
                .toList();
        List<Map<String, String>> failed =
                rows.stream().filter(r -> r.get("success").equals("false")).toList();
        assertThat(failed)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("responseCode"))
                        .as("%s %s", r.get("label"), r.get("responseMessage"))
                        .isIn(
                                "ConnectionLost",
                                "NotConnected",
                                "SendFailed",
                                "ConnectionRefused",
                                "ConnectFailed",
                                "ConnectTimeout",
                                "StompError"));
        long lastFailure = Long.parseLong(failed.get(failed.size() - 1).get("timeStamp"));
        assertThat(rows)
                .as("successful sends after the last failure: the senders reconnected")
                .anyMatch(r -> r.get("label").equals("send")
                        && r.get("success").equals("true")
                        && Long.parseLong(r.get("timeStamp")) > lastFailure);

        List<String[]> timing = run.timing();
        Map<String, Set<String>> outcomes = timing.stream()
                .collect(Collectors.groupingBy(r -> r[1], Collectors.mapping(r -> r[2], Collectors.toSet())));
        long answered = outcomes.getOrDefault("ANSWERED", Set.of()).size();
        long lost = outcomes.getOrDefault("LOST", Set.of()).size();
        long failedMessages = outcomes.getOrDefault("FAILED", Set.of()).size();
        long sent = timing.stream().map(r -> r[2]).distinct().count();
        assertThat(answered + lost + failedMessages).isEqualTo(sent);
        assertThat(answered).isPositive();
        assertBooks(run, sent, answered, lost, failedMessages);
        long answeredAfterRestart = timing.stream()
                .filter(r -> r[1].equals("ANSWERED"))
                .filter(r -> Long.parseLong(r[0]) > lastFailure)
                .count();
        assertThat(answeredAfterRestart)
                .as("messages answered after the restart")
                .isPositive();
    }

    private static Set<String> column(List<String[]> records, int column) {
        return records.stream().map(r -> r[column]).collect(Collectors.toSet());
    }

    /** The books the plugin writes to jmeter.log when the test ends, nothing pending. */
    private static void assertBooks(PlanRun run, long sent, long answered, long lost, long failed) throws Exception {
        assertThat(run.books())
                .extracting(
                        BooksLine::sent, BooksLine::answered, BooksLine::lost, BooksLine::failed, BooksLine::pending)
                .containsExactly(sent, answered, lost, failed, 0L);
    }
}
