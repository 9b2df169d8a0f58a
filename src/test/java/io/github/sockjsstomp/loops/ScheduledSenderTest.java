package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.StepOffer;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduled sender's decisions on a thread whose server is gone ({@link TestThread#unreachable}): which row a sample
 * is, what the books hold after it, when it reports nothing, and how long it waits, read from a clock that moves only
 * when the sender sleeps ({@link TestClock}). Counts, contents and the waits asked for, never durations.
 */
class ScheduledSenderTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long QUARTER_SECOND = TimeUnit.MILLISECONDS.toNanos(250);

    private final TestClock clock = new TestClock();
    private TestThread thread;

    @AfterEach
    void close() {
        Thread.interrupted();
        if (thread != null) {
            thread.close();
        }
    }

    /** A sender of {@code perSecond} messages per second, a sample per wake-up, following no steps. */
    private ScheduledSender sender(double perSecond) {
        return new ScheduledSender(thread, new SendSchedule(perSecond, 10), 0, new StepsFollower(null, 1, 10), clock);
    }

    /** A sender that follows the run's rate steps, which offer {@code offer} (its one thread has all of it). */
    private ScheduledSender following(StepOffer offer) {
        assertThat(thread.run.adoptSteps(offer)).isSameAs(offer);
        return new ScheduledSender(thread, new SendSchedule(1, 10), 0, new StepsFollower(thread.run, 1, 10), clock);
    }

    @Test
    void aRefusalNoSampleSaidIsARowOfItsOwnBeforeAnyMessageAndIsSaidOnce() throws Exception {
        thread = TestThread.unreachable(2, SendMode.FIRE_AND_FORGET);
        thread.refused(1, "Unknown destination /app/nowhere");
        ScheduledSender sender = sender(1);

        SenderRow row = sender.sample(null, "send");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.SERVER_ERROR);
        assertThat(row.result().getResponseMessage()).contains("Unknown destination /app/nowhere");
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
        assertThat(sender.sample(null, "send").result().getResponseCode())
                .as("the next sample sends, the refusal said")
                .isNotEqualTo(Sample.SERVER_ERROR);
    }

    @Test
    void aMessageDueWhileEveryUserIsDownIsASampleOfItsOwnAndFailedInTheBooks() throws Exception {
        thread = TestThread.unreachable(2, SendMode.FIRE_AND_FORGET);

        SenderRow row = sender(1).sample(null, "send");

        assertThat(row.result().isSuccessful()).isFalse();
        assertThat(row.result().getResponseCode()).isNotEqualTo(Sample.SEND_FAILED);
        assertThat(row.ofMessages()).as("a failed connect is no message's row").isFalse();
        assertThat(thread.books().sent()).isEqualTo(1);
        assertThat(thread.books().failed()).isEqualTo(1);
    }

    @Test
    void anUnreadableMessageIsAConfigErrorRow() throws Exception {
        thread = TestThread.unreachable(1, SendMode.FIRE_AND_FORGET);
        thread.unreadable = new IllegalArgumentException("Parameter 'payload' has value '{{nope}}'");

        SenderRow row = sender(1).sample(null, "send");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
        assertThat(row.result().getResponseMessage()).contains("'{{nope}}'");
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void stopWhileWaitingForTheNextMessageReportsNothingAndSendsNothing() throws IOException, InterruptedException {
        thread = TestThread.unreachable(1, SendMode.FIRE_AND_FORGET);
        ScheduledSender sender = sender(1); // the next message a second after the first
        sender.sample(null, "send");
        long sentBefore = thread.books().sent();

        Thread.currentThread().interrupt(); // JMeter's Stop
        SenderRow row = sender.sample(null, "send");

        assertThat(row.result().isIgnore()).isTrue();
        assertThat(Thread.currentThread().isInterrupted())
                .as("the flag stays for JMeter")
                .isTrue();
        assertThat(thread.books().sent()).isEqualTo(sentBefore);
    }

    /**
     * Two users, so that each message has a user due to connect and no sample waits for a backoff: the first message
     * is due at once, the second a second later, and the sample that sends it waits for it, no less, no more.
     */
    @Test
    void aSampleWaitsUntilItsMessageIsDue() throws Exception {
        thread = TestThread.unreachable(2, SendMode.FIRE_AND_FORGET);
        ScheduledSender sender = sender(1);

        sender.sample(null, "send");
        assertThat(clock.sleeps).as("the first message is due at once").isEmpty();
        SenderRow second = sender.sample(null, "send");

        assertThat(clock.sleeps).containsExactly(SECOND);
        assertThat(second.result().isIgnore()).isFalse();
        assertThat(thread.books().sent()).isEqualTo(2);
    }

    @Test
    void theThreadsEndBeforeTheNextMessageEndsTheWaitAndTheSampleReportsNothing() throws Exception {
        thread = TestThread.unreachable(2, SendMode.FIRE_AND_FORGET);
        ScheduledSender sender = sender(1);
        sender.sample(null, "send");
        clock.endsIn(QUARTER_SECOND);

        SenderRow row = sender.sample(null, "send");

        assertThat(clock.sleeps).containsExactly(QUARTER_SECOND);
        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.books().sent()).isEqualTo(1);
    }

    /**
     * The end time passed as the sample began (JMeter looks at it only between samples): the sample neither waits for
     * its message, which would come after the end, nor sends it.
     */
    @Test
    void aThreadWhoseEndHasPassedNeitherWaitsForItsNextMessageNorSendsIt() throws Exception {
        thread = TestThread.unreachable(2, SendMode.FIRE_AND_FORGET);
        ScheduledSender sender = sender(1);
        sender.sample(null, "send");
        clock.endsIn(0);

        SenderRow row = sender.sample(null, "send");

        assertThat(clock.sleeps).isEmpty();
        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.books().sent()).isEqualTo(1);
    }

    @Test
    void aRateStepOfNothingWaitsForTheNextStepAndSendsNothing() throws Exception {
        thread = TestThread.unreachable(1, SendMode.FIRE_AND_FORGET);
        ScheduledSender sender = following(new StillOffer(0, 250));

        SenderRow row = sender.sample(null, "send");

        assertThat(clock.sleeps).containsExactly(QUARTER_SECOND);
        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.books().sent()).isZero();
    }

    /**
     * With rate steps the wait for a message ends at the offer's next change: the next step's rate may make it due
     * sooner. One a second, the next change in a quarter of a second: the sample after the first message looks again
     * then, and reports nothing.
     */
    @Test
    void withRateStepsTheWaitEndsAtTheOffersNextChange() throws Exception {
        thread = TestThread.unreachable(2, SendMode.FIRE_AND_FORGET);
        ScheduledSender sender = following(new StillOffer(1, 250));
        sender.sample(null, "send");

        SenderRow row = sender.sample(null, "send");

        assertThat(clock.sleeps).containsExactly(QUARTER_SECOND);
        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.books().sent()).isEqualTo(1);
    }

    /** Rate steps whose offer is the same at every time and changes (by the plan) a fixed time after any time asked. */
    private record StillOffer(double perSecond, long nextChangeAfterMillis) implements StepOffer {

        @Override
        public String kind() {
            return StepKind.RATE.parameter;
        }

        @Override
        public double offeredAt(long epochMs) {
            return perSecond;
        }

        @Override
        public boolean ramping(long epochMs) {
            return false;
        }

        @Override
        public long nextChangeEpochMs(long epochMs) {
            return epochMs + nextChangeAfterMillis;
        }

        @Override
        public void senderTick(long tickMillis) {}

        @Override
        public void sendLag(long lagNanos) {}
    }
}
