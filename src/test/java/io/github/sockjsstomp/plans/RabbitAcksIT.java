package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.broker.RabbitBroker;
import io.github.sockjsstomp.broker.RabbitBroker.QueueCounts;
import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumers that acknowledge, run by the real JMeter launcher against a RabbitMQ node of the test's own (Web-STOMP),
 * the broker that puts a NACKed message back in its queue: the redeliveries a NACK causes are counted once each,
 * beside the books, and the broker's own counts (published, delivered, delivered again, acknowledged, left in the
 * queue, from its management API) are set beside ours. send.jmx, two users each sending to and subscribed to a
 * queue of its own. Counts and contents only.
 */
class RabbitAcksIT {

    private static final int USERS = 2;

    @TempDir
    static Path dir;

    private static RabbitBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        PlanRun.jmeterHome();
        broker = RabbitBroker.start(dir.resolve("rabbitmq"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    /** send.jmx on the broker: user N sends to /queue/{queue}.N and subscribes to it, {@code more} on top. */
    private static PlanRun send(String queue, String... more) throws Exception {
        List<String> properties = broker.planProperties(
                "replySamples=false",
                "users=" + USERS,
                "threads=" + USERS,
                "rampUp=0",
                "destination=/queue/" + queue + ".{{userNumber}}",
                "subscribeTo=/queue/" + queue + ".{{userNumber}}",
                "replyTimeoutMillis=15000");
        properties.addAll(Arrays.asList(more));
        return PlanRun.runClean(dir.resolve(queue), "send", false, properties);
    }

    /**
     * The broker's counts of the users' queues, added up, once its statistics have caught up with the {@code
     * published} messages and it has none delivered and unacknowledged (bounded wait: it collects them every
     * 500 ms here).
     */
    private static QueueCounts brokerCounts(String queue, long published) throws Exception {
        QueueCounts total = null;
        for (int attempt = 0; attempt < 100; attempt++) {
            total = usersQueues(queue);
            if (total.published() == published && total.unacked() == 0) {
                // one more collection, for the deliveries and acknowledgements that came after the last publish
                Thread.sleep(1000);
                return usersQueues(queue);
            }
            Thread.sleep(200);
        }
        return total;
    }

    /** The counts of the users' queues {@code queue}.1 ... added up. */
    private static QueueCounts usersQueues(String queue) throws Exception {
        QueueCounts total = new QueueCounts(0, 0, 0, 0, 0, 0);
        for (int n = 1; n <= USERS; n++) {
            total = total.plus(broker.counts(queue + "." + n));
        }
        return total;
    }

    /**
     * Every 4th first delivery of each subscription NACKed: RabbitMQ puts it back in its queue and delivers it again
     * (redelivered:true), and the consumer ACKs it then. Each comes once more and is counted once as a redelivery of
     * the message already answered; the books stay exact, and the broker counts what we count.
     */
    @Test
    void aNackedMessageComesAgainOnceAndIsCountedAsTheBrokerCountsIt() throws Exception {
        PlanRun run = send("nack", "duration=8", "messagesPerSecond=20", "ack=client-individual", "nackShare=0.25");
        long sent = run.sentAllAnswered();
        Map<String, Long> perQueue = run.timing().stream()
                .filter(r -> r[1].equals("ANSWERED"))
                .collect(Collectors.groupingBy(r -> r[6], Collectors.counting()));
        assertThat(perQueue).hasSize(USERS);
        long nacked = perQueue.values().stream().mapToLong(n -> n / 4).sum();
        assertThat(nacked).isPositive();

        BooksLine books = run.books();
        assertThat(books.redeliveries()).as(books.line()).isEqualTo(nacked);
        List<String[]> again =
                run.timing().stream().filter(r -> r[1].equals("REDELIVERED")).toList();
        Set<String> answered = run.timing().stream()
                .filter(r -> r[1].equals("ANSWERED"))
                .map(r -> r[2])
                .collect(Collectors.toSet());
        assertThat(again).hasSize((int) nacked);
        assertThat(again.stream().map(r -> r[2]).distinct())
                .as("each message once")
                .hasSameSizeAs(again);
        assertThat(again)
                .allSatisfy(r -> assertThat(answered).as("answered before").contains(r[2]));

        AckLine acks = AckLine.of(run);
        assertThat(acks)
                .isEqualTo(new AckLine(
                        sent + nacked, sent, sent, nacked, 0, acks.maxUnacked(), acks.maxAtOneSubscription(), 0));
        assertThat(brokerCounts("nack", sent)).isEqualTo(new QueueCounts(sent, sent + nacked, nacked, sent, 0, 0));
    }

    /**
     * A consumer slower than its producer with RabbitMQ's {@code prefetch-count:1}: the broker sends one message at
     * a time and keeps the rest ready in the queue, so never more than one per user is unacknowledged at ours, and
     * the queue the broker reports (its management API, polled into the server figures' log) grows; what the
     * consumers had in hand when the run ended goes back to the queue.
     */
    @Test
    void aPrefetchOfOneHoldsTheRestInTheQueueWhereTheServersFiguresShowThem() throws Exception {
        PlanRun run = send(
                "prefetch",
                "duration=8",
                "messagesPerSecond=8",
                "ack=client-individual",
                "consumeMillis=400",
                "subscribeHeaders=prefetch-count:1",
                "serverFigures=rabbitmq:" + broker.managementUrl(),
                "serverFiguresMillis=500",
                "serverFiguresLog=figures.csv");
        long sent = run.sentAllAnswered();
        List<Long> queueDepths = Files.readAllLines(run.dir().resolve("figures.csv"), StandardCharsets.UTF_8).stream()
                .map(line -> line.split(","))
                .filter(r -> r.length == 4 && r[1].equals("rabbitmq") && r[2].equals("queue_depth"))
                .map(r -> Long.parseLong(r[3]))
                .toList();
        // 4 messages a second per user against 2.5 consumed: the rest waits in the queue, and the broker says so
        assertThat(queueDepths).as("the broker's queue depth, polled").isNotEmpty();
        // the run's end: the node's memory per held session from the file's readings (none where the broker, just
        // started, gave its nodes' memory only once the sessions were held), and no CPU figure to give
        Path figures = run.dir().resolve("figures.csv");
        assertThat(ServerFiguresIT.costLines(run.dir()))
                .contains(
                        "stomp server memory per held session: "
                                + ServerFiguresIT.expected(figures, ZoneId.systemDefault(), "rabbitmq"),
                        "stomp server CPU per message: none from rabbitmq (RabbitMQ's management API has no CPU"
                                + " figure)")
                .anySatisfy(line -> assertThat(line).containsPattern(" node memory \\(rabbitmq[,:] "));
        assertThat(queueDepths.stream().mapToLong(Long::longValue).max().orElse(0))
                .as("messages waiting at the broker at most, %s", queueDepths)
                .isGreaterThan(USERS);
        AckLine acks = AckLine.of(run);
        assertThat(acks.maxAtOneSubscription())
                .as("unacknowledged at most at one subscription, a prefetch of one")
                .isEqualTo(1);
        assertThat(acks.maxUnacked()).as("unacknowledged at most").isBetween(1L, (long) USERS);
        assertThat(acks.abandoned()).as("left in the consumers' hands").isBetween(0L, (long) USERS);
        assertThat(acks)
                .isEqualTo(new AckLine(
                        sent,
                        sent - acks.abandoned(),
                        sent - acks.abandoned(),
                        0,
                        0,
                        acks.maxUnacked(),
                        1,
                        acks.abandoned()));
        QueueCounts counts = brokerCounts("prefetch", sent);
        assertThat(counts.acked()).isEqualTo(acks.acked());
        assertThat(counts.ready()).as("back in the queue").isEqualTo(acks.abandoned());
        assertThat(counts.unacked()).isZero();
    }
}
