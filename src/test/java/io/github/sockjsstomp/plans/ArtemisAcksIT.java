package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.broker.ArtemisBroker.QueueCounts;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumers that acknowledge (issue 41), run by the real JMeter launcher against an embedded ActiveMQ Artemis that
 * keeps each user's queue after the run, so that the broker's own counts (messages added, acknowledged, still
 * waiting) can be set beside ours: send.jmx, two users each sending to and subscribed to a queue of its own. Counts
 * and contents only.
 */
class ArtemisAcksIT {

    private static final int USERS = 2;

    @TempDir
    static Path dir;

    private static ArtemisBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        PlanRun.jmeterHome();
        broker = ArtemisBroker.start(dir.resolve("artemis"), Map.of("guest", "guest"), 0, true);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    /** send.jmx on the broker: user N sends to /queue/{queue}.N and subscribes to it, {@code more} on top. */
    private static PlanRun send(String queue, String... more) throws Exception {
        return PlanRun.runClean(dir.resolve(queue), "send", false, properties(queue, more));
    }

    /** The properties of {@link #send}. */
    private static List<String> properties(String queue, String... more) {
        List<String> properties = broker.planProperties(
                "replySamples=false",
                "login=guest",
                "passcode=guest",
                "users=" + USERS,
                "threads=" + USERS,
                "rampUp=0",
                "destination=/queue/" + queue + ".{{userNumber}}",
                "subscribeTo=/queue/" + queue + ".{{userNumber}}",
                "replyTimeoutMillis=15000");
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    /** The broker's counts of the users' queues, added up, once it has no delivery in flight (bounded wait). */
    private static QueueCounts brokerCounts(String queue) throws InterruptedException {
        QueueCounts total = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            long added = 0;
            long acknowledged = 0;
            long waiting = 0;
            long delivering = 0;
            for (int n = 1; n <= USERS; n++) {
                QueueCounts counts = broker.counts(queue + "." + n);
                added += counts.added();
                acknowledged += counts.acknowledged();
                waiting += counts.waiting();
                delivering += counts.delivering();
            }
            total = new QueueCounts(added, acknowledged, waiting, delivering);
            if (delivering == 0) {
                return total;
            }
            Thread.sleep(100);
        }
        return total;
    }

    /** How many messages each user's queue carried, from the timing log: destination to count. */
    private static Map<String, Long> perQueue(PlanRun run) throws Exception {
        return run.timing().stream().collect(Collectors.groupingBy(r -> r[6], Collectors.counting()));
    }

    /**
     * Every message delivered once and ACKed, but for those the run's end found the consumers still at work on: the
     * last reply ends the run, and a consumer that takes time over each message had at most its last one in hand.
     */
    private static AckLine consumedToTheEnd(PlanRun run, long sent) throws Exception {
        AckLine acks = AckLine.of(run);
        assertThat(acks.abandoned()).as("left in the consumers' hands").isBetween(0L, (long) USERS);
        assertThat(acks)
                .isEqualTo(new AckLine(
                        sent,
                        sent - acks.abandoned(),
                        acks.ackFrames(),
                        0,
                        0,
                        acks.maxUnacked(),
                        acks.maxAtOneSubscription(),
                        acks.abandoned()));
        assertThat(acks.maxAtOneSubscription()).isBetween(1L, acks.maxUnacked());
        return acks;
    }

    @Test
    void clientIndividualAcksEachMessageAfterTheConsumersTimeAndTheBrokerCountsAsWeDo() throws Exception {
        PlanRun run = send(
                "individual",
                "duration=8",
                "messagesPerSecond=20",
                "ack=client-individual",
                "consumeMillis=20",
                "summariser.interval=3");
        long sent = run.sentAllAnswered();
        AckLine acks = consumedToTheEnd(run, sent);
        assertThat(AckLine.atTheEnd(run)).as("the end's 'stomp acks:' lines").hasSize(1);
        assertThat(acks.ackFrames()).isEqualTo(acks.acked());
        assertThat(acks.maxUnacked()).isBetween(1L, sent);
        assertThat(brokerCounts("individual")).isEqualTo(new QueueCounts(sent, acks.acked(), acks.abandoned(), 0));
    }

    /**
     * A consumer slower than its producer: without a window the broker sends everything at once and the messages
     * wait unacknowledged at the consumer; with Artemis' {@code consumer-window-size:1} (bytes: one message at a
     * time) it holds them itself, and never more than one per user is unacknowledged.
     */
    @Test
    void aConsumerWindowOfOneMessageHoldsTheRestAtTheBroker() throws Exception {
        String[] slow = {"duration=8", "messagesPerSecond=8", "ack=client-individual", "consumeMillis=400"};
        PlanRun unbounded = send("unbounded", slow);
        long sent = unbounded.sentAllAnswered();
        AckLine all = AckLine.of(unbounded);
        assertThat(all.maxUnacked()).as("unacknowledged at most, no window").isGreaterThan(USERS);
        assertThat(all.maxAtOneSubscription())
                .as("unacknowledged at most at one subscription, no window")
                .isGreaterThan(1);
        // every reply came at once, so the run ended while the consumers were still at work: what they had not
        // finished is left unacknowledged, and the broker keeps it
        assertThat(all.delivered()).isEqualTo(sent);
        assertThat(all.acked() + all.abandoned()).isEqualTo(sent);
        assertThat(all.unacked()).isZero();
        assertThat(brokerCounts("unbounded")).isEqualTo(new QueueCounts(sent, all.acked(), all.abandoned(), 0));

        List<String> windowed = new ArrayList<>(List.of(slow));
        windowed.add("subscribeHeaders=consumer-window-size:1");
        PlanRun window = send("window", windowed.toArray(String[]::new));
        long windowSent = window.sentAllAnswered();
        AckLine one = consumedToTheEnd(window, windowSent);
        assertThat(one.maxUnacked())
                .as("unacknowledged at most, a window of one")
                .isBetween(1L, (long) USERS);
        assertThat(one.maxAtOneSubscription())
                .as("unacknowledged at most at one subscription, a window of one")
                .isOne();
        assertThat(brokerCounts("window")).isEqualTo(new QueueCounts(windowSent, one.acked(), one.abandoned(), 0));
    }

    @Test
    void clientAcksCumulativelyEveryNMessagesAndTheRestBeforeDisconnect() throws Exception {
        PlanRun run = send("cumulative", "duration=8", "messagesPerSecond=20", "ack=client", "ackEvery=4");
        long sent = run.sentAllAnswered();
        long frames = perQueue(run).values().stream()
                .mapToLong(n -> n / 4 + (n % 4 == 0 ? 0 : 1))
                .sum();
        AckLine acks = AckLine.of(run);
        // no consume time: each message is consumed as it comes, and a subscription holds at most the 3 it consumed
        // since its last ACK and the one just come
        assertThat(acks).isEqualTo(new AckLine(sent, sent, frames, 0, 0, acks.maxUnacked(), 4, 0));
        assertThat(brokerCounts("cumulative")).isEqualTo(new QueueCounts(sent, sent, 0, 0));
    }

    /**
     * Every 4th message of each subscription NACKed: Artemis acknowledges what a STOMP NACK names (its STOMP 1.1 and
     * 1.2 handlers treat NACK as ACK), so nothing comes again and the broker counts every message acknowledged.
     */
    @Test
    void nackedMessagesAreSpreadEvenlyAndArtemisTakesANackAsAnAck() throws Exception {
        PlanRun run = send("nack", "duration=8", "messagesPerSecond=20", "ack=client-individual", "nackShare=0.25");
        long sent = run.sentAllAnswered();
        long nacked = perQueue(run).values().stream().mapToLong(n -> n / 4).sum();
        AckLine acks = AckLine.of(run);
        assertThat(acks).isEqualTo(new AckLine(sent, sent - nacked, sent - nacked, nacked, 0, acks.maxUnacked(), 1, 0));
        assertThat(brokerCounts("nack")).isEqualTo(new QueueCounts(sent, sent, 0, 0));
        assertThat(perQueue(run))
                .hasSize(USERS)
                .allSatisfy((queue, count) -> assertThat(count).isPositive());
    }

    /**
     * The broker drops every connection while the consumers hold unacknowledged messages: the users reconnect and
     * subscribe again, Artemis delivers those messages again (redelivered:true), and each is counted once as a
     * redelivery of the message already answered, never as a second answer.
     */
    @Test
    void aSessionLostWithUnacknowledgedMessagesHasThemDeliveredAgainAndCountedOnce() throws Exception {
        List<String> properties = properties(
                "dropped",
                "duration=8",
                "messagesPerSecond=10",
                "ack=client-individual",
                "consumeMillis=400",
                "sockjsstomp.reconnectMinMillis=300",
                "sockjsstomp.reconnectMaxMillis=1000");
        PlanRun.Launch launch = PlanRun.launch(dir.resolve("dropped"), "send", false, properties);
        // the consumers (2.5 a second) fall behind the producers (5 a second): wait until they hold some
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PlanRun.TIMEOUT_SECONDS);
        while (brokerCounts("dropped").delivering() < 2 * USERS
                && System.nanoTime() < deadline
                && launch.process().isAlive()) {
            Thread.sleep(50);
        }
        assertThat(broker.dropConnections()).isEqualTo(USERS);
        PlanRun run = launch.await();

        BooksLine books = run.books();
        assertThat(books.balanced()).as(books.line()).isTrue();
        Matcher counted = Pattern.compile(", redeliveries=(\\d+)").matcher(books.line());
        assertThat(counted.find()).as(books.line()).isTrue();
        long redeliveries = Long.parseLong(counted.group(1));
        List<String[]> again =
                run.timing().stream().filter(r -> r[1].equals("REDELIVERED")).toList();
        Set<String> answered = run.timing().stream()
                .filter(r -> r[1].equals("ANSWERED"))
                .map(r -> r[2])
                .collect(Collectors.toSet());
        assertThat(again).hasSize((int) redeliveries).isNotEmpty();
        assertThat(again.stream().map(r -> r[2]).distinct())
                .as("each message once")
                .hasSameSizeAs(again);
        assertThat(again).allSatisfy(r -> {
            assertThat(answered).as("answered before").contains(r[2]);
            assertThat(Long.parseLong(r[17])).as("redelivered_after_us").isNotNegative();
        });
        assertThat(answered).as("one ANSWERED record a message answered").hasSize((int) books.answered());
        AckLine acks = AckLine.of(run);
        assertThat(acks.abandoned())
                .as("left unacknowledged by the lost sessions")
                .isPositive();
        assertThat(acks.delivered()).as("%s; %s", books.line(), acks).isEqualTo(books.answered() + redeliveries);
    }

    /**
     * The consume steps' line of docs/capacity.md and docs/broker-consumers.md as {@link
     * #consumeStepsSlowEveryConsumerWhileTheProducersKeepTheirRate} runs it, sizes apart; ReadmeCommandsIT counts the
     * line run here.
     */
    static final List<String> CONSUME_STEPS = List.of(
            "login=guest",
            "passcode=guest",
            "destination=/queue/orders.{{userNumber}}",
            "subscribeTo=/queue/orders.{{userNumber}}",
            "users=2",
            "threads=2",
            "rampUp=0",
            "messagesPerSecond=60",
            "ack=client-individual",
            "subscribeHeaders=consumer-window-size:1",
            "stepKind=consume",
            "steps=0..40+10",
            "sloP99Millis=500",
            "sloLostPercent=0",
            "stepRampSeconds=1",
            "stepHoldSeconds=4",
            "replyTimeoutMillis=5000");

    /**
     * A stepped run's steps over consumers that hold one message at a time, {@code queue}'s: a verdict per step, each
     * step's books exact, the consumers' acknowledgements and the broker's counts as ours.
     */
    private static List<Map<String, String>> stepsOverAWindowOfOne(PlanRun run, String queue) throws Exception {
        List<Map<String, String>> steps = SteppedCapacityIT.stepsLog(
                run.dir().resolve("stomp-steps.csv"), run.dir().resolve("console.txt"));
        assertThat(steps)
                .extracting(r -> r.get("verdict"))
                .allSatisfy(v -> assertThat(v).isIn("held", "broke"));
        SteppedCapacityIT.assertExactBooksPerStep(run, steps);
        BooksLine books = run.books();
        assertThat(books.balanced()).as(books.line()).isTrue();
        AckLine acks = AckLine.of(run);
        assertThat(acks.maxAtOneSubscription()).as("a window of one message").isOne();
        // a message LOST at its reply timeout (a consumer too slow for a step) may still be delivered after it
        assertThat(acks.delivered()).as("%s; %s", books.line(), acks).isEqualTo(books.answered() + books.lateReplies());
        assertThat(acks.acked() + acks.abandoned()).isEqualTo(acks.delivered());
        assertThat(acks.unacked()).isZero();
        QueueCounts counted = brokerCounts(queue);
        assertThat(counted.added()).isEqualTo(books.sent());
        assertThat(counted.acknowledged()).isEqualTo(acks.acked());
        return steps;
    }

    /**
     * Rate steps (issue 41: "a stepped run can step ... the producers' rate") over consumers that take 200 ms a
     * message, one message at a time (consumer-window-size:1): each user's consumer does at most 5 a second, so the
     * step of 8 a second per user grows a queue at the broker by 3 a second per user, and its last messages wait
     * seconds for their delivery: that step breaks a p99 of 1 s by arithmetic, whatever the machine's speed.
     */
    @Test
    void rateStepsOverSlowConsumersWithAWindowOfOneKeepEachStepsBooks() throws Exception {
        Path runDir = dir.resolve("rate-steps");
        PlanRun run = PlanRun.run(
                runDir,
                "send",
                false,
                properties(
                        "ratesteps",
                        "ack=client-individual",
                        "consumeMillis=200",
                        "subscribeHeaders=consumer-window-size:1",
                        "steps=4,16",
                        "stepRampSeconds=1",
                        "stepHoldSeconds=4",
                        "sloP99Millis=1000",
                        "sloLostPercent=0",
                        "replyTimeoutMillis=5000")); // later -J win: a step's verdict waits for its replies' timeout

        List<Map<String, String>> steps = stepsOverAWindowOfOne(run, "ratesteps");
        assertThat(steps).extracting(r -> r.get("kind")).containsExactly("rate", "rate");
        assertThat(steps.get(1).get("verdict")).isEqualTo("broke");
        assertThat(steps.get(1).get("limit")).isIn("server", "machine");
        assertThat(Files.readString(runDir.resolve("console.txt")))
                .contains("stomp steps: 2 steps of msg/s (4, 16)")
                .containsPattern("stomp capacity: held [^;]+; broke at [\\d,]+ msg/s: p99 ");
    }

    /**
     * Consume steps: docs/capacity.md's and docs/broker-consumers.md's line, sizes apart ({@link #CONSUME_STEPS}).
     * The producers keep 30 messages a second per user; the steps slow every consumer from 0 to 40 ms a message, one
     * message at a time. At 40 ms a consumer does fewer than 25 a second, so the queue at the broker grows by 5 a
     * second per user and the hold's last messages wait 20 x 40 ms for their delivery: the last step breaks a p99 of
     * 500 ms by arithmetic, which shows the steps' time reached the consumers.
     */
    @Test
    void consumeStepsSlowEveryConsumerWhileTheProducersKeepTheirRate() throws Exception {
        Path runDir = dir.resolve("consume-steps");
        PlanRun run = PlanRun.run(runDir, "send", false, broker.planProperties(CONSUME_STEPS.toArray(String[]::new)));

        List<Map<String, String>> steps = stepsOverAWindowOfOne(run, "orders");
        assertThat(steps).extracting(r -> r.get("kind")).containsOnly("consume").hasSize(5);
        assertThat(steps)
                .extracting(r -> Double.parseDouble(r.get("offered")))
                .containsExactly(0.0, 10.0, 20.0, 30.0, 40.0);
        assertThat(steps.get(4).get("verdict")).isEqualTo("broke");
        assertThat(steps.get(4).get("limit")).isIn("server", "machine");
        assertThat(Files.readString(runDir.resolve("console.txt")))
                .contains("stomp steps: 5 steps of ms per message (0, 10, 20, 30, 40), each 1.0 s ramp + 4.0 s hold")
                .contains("stomp step 5 of 5: 40 ms per message broke (")
                .containsPattern("stomp capacity: (held [\\d,]+ ms per message \\(p99 [^)]*achieved [\\d,]+ msg/s\\)|"
                        + "held no step); broke at [\\d,]+ ms per message: p99 [\\d,]+ ms");
    }
}
