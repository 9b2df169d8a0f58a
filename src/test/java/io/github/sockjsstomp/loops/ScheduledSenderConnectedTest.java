package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.timing.SendMode;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scheduled sender on users connected to the demo server ({@link TestThread#connectedTo}): how many messages a
 * sample sends, on which wake-ups, and what its row says, on a clock that moves only when the sender sleeps or the
 * test moves it ({@link TestClock}). One message a millisecond on four users, a wake-up at most every 10 ms. The
 * messages are written to the server (fire and forget); counts, contents and the waits asked for, never durations.
 */
class ScheduledSenderConnectedTest {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    private final TestClock clock = new TestClock();
    private TestThread thread;

    @BeforeEach
    void connect() throws InterruptedException {
        thread = TestThread.connectedTo(demo.port(), 4, SendMode.FIRE_AND_FORGET);
    }

    @AfterEach
    void close() {
        thread.close();
    }

    private ScheduledSender sender(long sampleMillis) {
        return new ScheduledSender(
                thread, new SendSchedule(1000, 10), sampleMillis, new StepsFollower(null, 1, 10), clock);
    }

    /**
     * The first wake-up sends message 0, due at once; each next one, a tick later, the ten that fell due in that
     * tick, while the wake-up falls within the sample's 50 ms: six wake-ups, five waits between them, 51 messages in
     * one row whose count they are.
     */
    @Test
    void aSampleWakesEachTickWithinItsSampleMillisAndIsOneRowOfEveryMessageSent() throws Exception {
        SenderRow row = sender(50).sample(null, "send");

        assertThat(clock.sleeps).containsExactlyElementsOf(Collections.nCopies(5, TICK_NANOS));
        assertThat(row.ofMessages()).isTrue();
        assertThat(row.result().isSuccessful()).isTrue();
        assertThat(row.result().getSampleCount()).isEqualTo(51);
        assertThat(row.result().getResponseMessage())
                .isEqualTo("SENT 51 messages (#0-50) in 6 wake-ups, the first 0.0 ms behind schedule, at most 9.0 ms");
        assertThat(thread.books().sent()).isEqualTo(51);
    }

    /**
     * A thread that fell 1.5 s behind (descheduled, or its last sample slow) does not wait: each sample sends what is
     * due at once, at most a thousand, and says how far behind its first message was. The messages keep their
     * intended times, so the backlog is sent, not skipped.
     */
    @Test
    void aThreadFarBehindItsScheduleCatchesUpWithoutWaitingAtMostAThousandMessagesASample() throws Exception {
        ScheduledSender sender = sender(0);
        sender.sample(null, "send");
        clock.advance(TimeUnit.MILLISECONDS.toNanos(1_500));

        SenderRow first = sender.sample(null, "send");
        SenderRow second = sender.sample(null, "send");

        assertThat(clock.sleeps).isEmpty();
        assertThat(first.result().getSampleCount()).isEqualTo(1000);
        assertThat(first.result().getResponseMessage())
                .isEqualTo("SENT 1000 messages (#1-1000), the first 1499.0 ms behind schedule");
        assertThat(second.result().getSampleCount()).isEqualTo(500);
        assertThat(second.result().getResponseMessage())
                .isEqualTo("SENT 500 messages (#1001-1500), the first 499.0 ms behind schedule");
        assertThat(thread.books().sent()).isEqualTo(1501);
    }

    /** The message is read once its user in turn is found connected: a bad parameter is a row of its own, unsent. */
    @Test
    void anUnreadableMessageIsAConfigErrorRowAndNoUserSends() throws Exception {
        thread.unreadable = new IllegalArgumentException("Parameter 'payload' has value '{{nope}}'");

        SenderRow row = sender(50).sample(null, "send");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
        assertThat(row.result().getResponseMessage()).contains("'{{nope}}'");
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }
}
