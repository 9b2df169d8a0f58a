package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What JMeter's own views say of every plan that times messages, at the plans' defaults: in its HTML dashboard
 * ({@code -e -o}), one label per destination as the plan writes it, whose sample count is the timing log's records
 * and whose mean response time is the timing log's mean latency, and a handful of labels whatever the number of
 * users. Against a broker no one here wrote (Artemis, a queue per user where the plan sends to one) and the demo
 * server. A view that tells another story than the timing log (a label per user, rows that are the thread's work,
 * latencies cut to the millisecond) fails here.
 */
class JMeterViewsIT {

    /** The dashboard's labels at 100 users: the session's steps, the reply rows, and room for a few more. */
    private static final int MOST_LABELS = 12;

    @TempDir
    static Path dir;

    private static ArtemisBroker broker;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @BeforeAll
    static void startBroker() throws Exception {
        PlanRun.jmeterHome();
        // chat.jmx's users log in as sender-N and receiver-N, with the plan's one passcode
        Map<String, String> users = new HashMap<>(Map.of("guest", "guest"));
        for (int n = 1; n <= 3; n++) {
            users.put("sender-" + n, "chat");
            users.put("receiver-" + n, "chat");
        }
        broker = ArtemisBroker.start(dir.resolve("artemis"), users, 0);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    private static List<String> artemis(String... more) {
        List<String> properties = broker.planProperties("login=guest", "passcode=guest");
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    private static List<String> demoServer(String... more) {
        List<String> properties = new ArrayList<>(
                List.of("port=" + demo.port(), "indexPath=/index", "pullPath=/clientPull", "endpoint=/ws"));
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    @Test
    void sendWithAQueuePerUserOnTheBrokerIsOneLabel() throws Exception {
        Views views = run(
                "send-artemis",
                "send",
                artemis(
                        "users=100",
                        "rampUp=1",
                        "duration=12",
                        "messagesPerSecond=100",
                        "destination=/queue/views.{{userNumber}}",
                        "subscribeTo=/queue/views.{{userNumber}}"));
        views.assertOneLabelTellsTheTimingLog("reply /queue/views.{{userNumber}}");
    }

    @Test
    void echoWithAQueuePerUserOnTheBrokerIsOneLabelOfRoundTrips() throws Exception {
        Views views = run(
                "echo-artemis",
                "echo",
                artemis(
                        "users=100",
                        "rampUp=1",
                        "duration=12",
                        "pauseMillis=500",
                        "destination=/queue/views-echo.{{userNumber}}",
                        "subscribeTo=/queue/views-echo.{{userNumber}}"));
        views.assertOneLabelTellsTheTimingLog("reply /queue/views-echo.{{userNumber}}");
        assertThat(views.labels)
                .as("the closed loop's own rows gather work: kept out")
                .doesNotContainKey("echo");
    }

    @Test
    void greetingsBroadcastOnTheBrokerIsARowPerCopyReceived() throws Exception {
        Views views = run(
                "greetings-artemis",
                "greetings",
                artemis(
                        "users=4",
                        "messages=10",
                        "pauseMillis=200",
                        "holdMillis=1500",
                        "destination=/topic/views-greetings",
                        "subscribeTo=/topic/views-greetings",
                        "payload=greeting {{msgId}}"));
        views.assertOneLabelTellsTheTimingLog("reply /topic/views-greetings");
        assertThat(views.labels).doesNotContainKey("hello");
    }

    @Test
    void chatThroughABrokersQueueIsOneLabelOfLatenciesAtTheReceivers() throws Exception {
        Views views = run(
                "chat-artemis",
                "chat",
                artemis(
                        "senders=3",
                        "receivers=3",
                        "messages=15",
                        "pauseMillis=100",
                        "senderDelay=3",
                        "passcode=chat",
                        "destination=/queue/views-chat",
                        "receiverSubscribeTo=/queue/views-chat",
                        "receiveTimeoutMillis=5000"));
        views.assertOneLabelTellsTheTimingLog("reply /queue/views-chat");
        assertThat(views.labels).doesNotContainKeys("chat send", "chat receive");
    }

    @Test
    void sendOnTheDemoServer() throws Exception {
        Views views =
                run("send-demo", "send", demoServer("users=100", "rampUp=1", "duration=12", "messagesPerSecond=100"));
        views.assertOneLabelTellsTheTimingLog("reply /app/echo");
        assertThat(views.labels).doesNotContainKey("send");
    }

    @Test
    void echoOnTheDemoServer() throws Exception {
        Views views = run("echo-demo", "echo", demoServer("users=100", "rampUp=1", "duration=12", "pauseMillis=500"));
        views.assertOneLabelTellsTheTimingLog("reply /app/echo");
    }

    @Test
    void greetingsOnTheDemoServer() throws Exception {
        Views views = run(
                "greetings-demo",
                "greetings",
                demoServer("users=4", "messages=10", "pauseMillis=200", "holdMillis=1500"));
        views.assertOneLabelTellsTheTimingLog("reply /app/hello");
    }

    @Test
    void chatOnTheDemoServer() throws Exception {
        Views views = run(
                "chat-demo",
                "chat",
                demoServer("senders=3", "receivers=3", "messages=15", "pauseMillis=100", "senderDelay=3"));
        views.assertOneLabelTellsTheTimingLog("reply /app/chat");
    }

    private static Views run(String name, String plan, List<String> properties) throws Exception {
        PlanRun run = PlanRun.run(dir.resolve(name), plan, true, properties);
        JsonNode statistics = new ObjectMapper()
                .readTree(run.dir().resolve("report/statistics.json").toFile());
        Map<String, JsonNode> labels = new TreeMap<>();
        statistics.fields().forEachRemaining(e -> {
            if (!e.getKey().equals("Total")) {
                labels.put(e.getKey(), e.getValue());
            }
        });
        return new Views(run, labels);
    }

    private record Views(PlanRun run, Map<String, JsonNode> labels) {

        void assertOneLabelTellsTheTimingLog(String label) throws IOException {
            BooksLine books = run.books();
            assertThat(books.lost() + books.failed())
                    .as("every message answered: %s", books.line())
                    .isZero();
            List<String[]> records = run.timing();
            assertThat(labels).as("the dashboard's labels").containsKey(label);
            assertThat(labels.keySet())
                    .as("one reply label, never one per user")
                    .filteredOn(l -> l.startsWith("reply"))
                    .containsExactly(label);
            assertThat(labels).as("labels in all").hasSizeLessThanOrEqualTo(MOST_LABELS);

            long rows = labels.get(label).get("sampleCount").asLong();
            assertThat((double) rows)
                    .as("%s rows against %s timing records", rows, records.size())
                    .isCloseTo(records.size(), within(records.size() * 0.02));
            double timingMeanMillis = records.stream()
                            .mapToLong(r -> Long.parseLong(r[3]))
                            .average()
                            .orElseThrow()
                    / 1000;
            double dashboardMean = labels.get(label).get("meanResTime").asDouble();
            assertThat(dashboardMean)
                    .as("the dashboard's mean against the timing log's %.3f ms", timingMeanMillis)
                    .isCloseTo(timingMeanMillis, within(Math.max(1, 0.15 * timingMeanMillis)));
        }
    }
}
