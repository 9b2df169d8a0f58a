package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.message.AckMode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;

class SubscriptionAcksTest {

    private final AckingSession session = new AckingSession();
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AckCounts counts = new AckCounts();

    private SubscriptionAcks acks(AckMode mode, int every, long consumeMillis, double nackShare) {
        return new SubscriptionAcks(
                session, new AckSettings(mode, every, consumeMillis, nackShare, counts), scheduler, "test");
    }

    /** A MESSAGE of STOMP 1.2 with its ack header; {@code redelivered} as brokers mark it. */
    private static StompHeaders message(int n, boolean redelivered) {
        StompHeaders headers = new StompHeaders();
        headers.setMessageId("m-" + n);
        headers.setAck("a-" + n);
        headers.set("subscription", "0");
        if (redelivered) {
            headers.set("redelivered", "true");
        }
        return headers;
    }

    private static void deliver(SubscriptionAcks acks, int from, int to, long receivedNanos) {
        for (int n = from; n <= to; n++) {
            acks.delivered(message(n, false), receivedNanos);
        }
    }

    @Test
    void clientIndividualAcksEachMessageInOrderByItsAckHeader() {
        SubscriptionAcks acks = acks(AckMode.CLIENT_INDIVIDUAL, 1, 0, 0);
        deliver(acks, 1, 3, System.nanoTime());
        // nothing to consume: each ACKed at once by the thread that delivered it, nothing scheduled
        assertThat(scheduler.scheduled()).isZero();
        assertThat(session.frames).containsExactly("ACK a-1", "ACK a-2", "ACK a-3");
        assertThat(session.headers.get(0).getMessageId()).isEqualTo("m-1");
        assertThat(session.headers.get(0).getFirst("subscription")).isEqualTo("0");
        assertThat(counts.snapshot()).isEqualTo(new AckCounts.Snapshot(3, 3, 3, 0, 0, 0, 1, 1));
    }

    @Test
    void clientAcksCumulativelyEveryNAndTheRestBeforeDisconnect() {
        SubscriptionAcks acks = acks(AckMode.CLIENT, 3, 0, 0);
        deliver(acks, 1, 7, System.nanoTime());
        assertThat(scheduler.scheduled()).isZero();
        assertThat(session.frames).containsExactly("ACK a-3", "ACK a-6");
        assertThat(counts.snapshot().unacked()).isOne();
        acks.finish();
        assertThat(session.frames).containsExactly("ACK a-3", "ACK a-6", "ACK a-7");
        assertThat(counts.snapshot()).isEqualTo(new AckCounts.Snapshot(7, 7, 3, 0, 0, 0, 3, 3));
    }

    @Test
    void nackedMessagesAreSpreadAndAClientNackFollowsAnAckOfThoseBeforeIt() {
        SubscriptionAcks acks = acks(AckMode.CLIENT, 10, 0, 0.25);
        deliver(acks, 1, 8, System.nanoTime());
        assertThat(session.frames).containsExactly("ACK a-3", "NACK a-4", "ACK a-7", "NACK a-8");
        assertThat(counts.snapshot()).isEqualTo(new AckCounts.Snapshot(8, 6, 2, 2, 0, 0, 4, 4));
    }

    @Test
    void aRedeliveryIsAlwaysAckedAndCountsNoNack() {
        SubscriptionAcks acks = acks(AckMode.CLIENT_INDIVIDUAL, 1, 0, 0.5);
        long now = System.nanoTime();
        acks.delivered(message(1, false), now);
        acks.delivered(message(2, false), now);
        acks.delivered(message(2, true), now);
        acks.delivered(message(3, false), now);
        scheduler.runAll();
        assertThat(session.frames).containsExactly("ACK a-1", "NACK a-2", "ACK a-2", "ACK a-3");
    }

    @Test
    void theConsumerTakesItsMessagesOneAfterAnother() {
        SubscriptionAcks acks = acks(AckMode.CLIENT_INDIVIDUAL, 1, 4_000, 0);
        // three arrived together 10 s ago: done 6 s ago, 2 s ago and in 2 s
        deliver(acks, 1, 3, System.nanoTime() - TimeUnit.SECONDS.toNanos(10));
        scheduler.runAll();
        assertThat(session.frames).containsExactly("ACK a-1", "ACK a-2");
        assertThat(scheduler.scheduled()).isOne(); // the third's, when it is due
        assertThat(counts.snapshot().unacked()).isOne();
        // closed before the consumer is done: the third stays unacknowledged, the broker's to deliver again
        acks.finish();
        assertThat(session.frames).containsExactly("ACK a-1", "ACK a-2");
        assertThat(counts.snapshot()).isEqualTo(new AckCounts.Snapshot(3, 2, 2, 0, 1, 0, 3, 3));
    }

    @Test
    void aLostSessionLeavesItsMessagesUnacknowledged() {
        SubscriptionAcks acks = acks(AckMode.CLIENT, 5, 0, 0);
        deliver(acks, 1, 3, System.nanoTime());
        scheduler.runAll();
        assertThat(session.frames).isEmpty();
        session.connected = false;
        acks.lost();
        deliver(acks, 4, 4, System.nanoTime());
        scheduler.runAll();
        assertThat(session.frames).isEmpty();
        assertThat(counts.snapshot()).isEqualTo(new AckCounts.Snapshot(4, 0, 0, 0, 4, 0, 3, 3));
    }

    @Test
    void aSessionClosedUnderTheAcksStopsThem() {
        SubscriptionAcks acks = acks(AckMode.CLIENT_INDIVIDUAL, 1, 1, 0);
        deliver(acks, 1, 2, System.nanoTime() - TimeUnit.SECONDS.toNanos(1));
        session.connected = false;
        scheduler.runAll();
        assertThat(session.frames).isEmpty();
        assertThat(counts.snapshot().abandoned()).isEqualTo(2);
        assertThat(counts.snapshot().unacked()).isZero();
    }

    @Test
    void aMessageDeliveredWhileTheAckBeforeItIsWrittenIsNotCountedWithIt() {
        // a window of one message: the broker sends the next as soon as it reads the ACK, which may be before the
        // writing thread returns; the consumer holds one message at a time, and the counts must say so
        SubscriptionAcks acks = acks(AckMode.CLIENT_INDIVIDUAL, 1, 0, 0);
        int[] next = {2};
        session.duringWrite = () -> {
            if (next[0] <= 5) {
                acks.delivered(message(next[0]++, false), System.nanoTime());
            }
        };
        acks.delivered(message(1, false), System.nanoTime());
        assertThat(session.frames).containsExactly("ACK a-1", "ACK a-2", "ACK a-3", "ACK a-4", "ACK a-5");
        assertThat(counts.snapshot()).isEqualTo(new AckCounts.Snapshot(5, 5, 5, 0, 0, 0, 1, 1));
    }

    /**
     * The prefetch bounds each subscription, so the run's maximum (all of them together) cannot be set beside it:
     * the most one subscription held is counted apart.
     */
    @Test
    void theMostOneSubscriptionHeldIsCountedBesideTheRunsMaximum() {
        SubscriptionAcks first = acks(AckMode.CLIENT_INDIVIDUAL, 1, 4_000, 0);
        SubscriptionAcks second = acks(AckMode.CLIENT_INDIVIDUAL, 1, 4_000, 0);
        long now = System.nanoTime();
        deliver(first, 1, 3, now);
        deliver(second, 4, 5, now);
        assertThat(counts.snapshot().unacked()).isEqualTo(5);
        assertThat(counts.snapshot().maxUnacked()).isEqualTo(5);
        assertThat(counts.snapshot().maxAtOneSubscription()).isEqualTo(3);
        first.finish();
        second.finish();
        deliver(acks(AckMode.CLIENT_INDIVIDUAL, 1, 4_000, 0), 6, 7, now);
        assertThat(counts.snapshot().maxAtOneSubscription())
                .as("a maximum stays")
                .isEqualTo(3);
        assertThat(counts.snapshot().toString())
                .isEqualTo("acks: delivered=7 acked=0 (0 ACK frames) nacked=0 unacked=2 (max 5, at most 3 at one "
                        + "subscription) left unacknowledged at a session's end=5");
    }

    /** stepKind=consume: one time for every subscription, set as the steps move, taken by each message as it comes. */
    @Test
    void aConsumeStepChangesTheTimeOfEverySubscriptionForTheMessagesThatComeAfterIt() {
        SteppedConsumeTime stepped = new SteppedConsumeTime();
        AckSettings settings = new AckSettings(AckMode.CLIENT_INDIVIDUAL, 1, 0, 0, counts, stepped);
        SubscriptionAcks first = new SubscriptionAcks(session, settings, scheduler, "first");
        SubscriptionAcks second = new SubscriptionAcks(session, settings, scheduler, "second");
        long now = System.nanoTime();
        first.delivered(message(1, false), now - TimeUnit.SECONDS.toNanos(20));
        assertThat(session.frames)
                .as("its own consumeMillis, 0, until a step sets one")
                .containsExactly("ACK a-1");

        stepped.millis(4_000);
        first.delivered(message(2, false), now - TimeUnit.SECONDS.toNanos(10)); // done 6 s ago
        second.delivered(message(3, false), now); // done in 4 s
        assertThat(session.frames).containsExactly("ACK a-1");
        assertThat(scheduler.scheduled()).isEqualTo(2);
        scheduler.runAll();
        assertThat(session.frames).containsExactly("ACK a-1", "ACK a-2");
        assertThat(scheduler.scheduled()).as("the third's, when it is due").isOne();

        stepped.millis(0);
        first.delivered(message(4, false), now);
        assertThat(session.frames).containsExactly("ACK a-1", "ACK a-2", "ACK a-4");
    }
}
