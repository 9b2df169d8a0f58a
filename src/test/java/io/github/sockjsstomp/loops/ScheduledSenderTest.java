package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.steps.followers.StepsFollower;
import io.github.sockjsstomp.timing.SendMode;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduled sender's decisions on a thread whose server is gone ({@link UnreachableThread}): which row a sample
 * is, what the books hold after it, and when it reports nothing. Counts and contents, never durations.
 */
class ScheduledSenderTest {

    private UnreachableThread thread;

    @AfterEach
    void close() {
        Thread.interrupted();
        if (thread != null) {
            thread.close();
        }
    }

    /** A sender of {@code perSecond} messages per second, a sample per wake-up, following no steps. */
    private ScheduledSender sender(double perSecond) {
        return new ScheduledSender(thread, new SendSchedule(perSecond, 10), 0, new StepsFollower(null, 1, 10));
    }

    @Test
    void aRefusalNoSampleSaidIsARowOfItsOwnBeforeAnyMessageAndIsSaidOnce() throws Exception {
        thread = new UnreachableThread(2, SendMode.FIRE_AND_FORGET);
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
        thread = new UnreachableThread(2, SendMode.FIRE_AND_FORGET);

        SenderRow row = sender(1).sample(null, "send");

        assertThat(row.result().isSuccessful()).isFalse();
        assertThat(row.result().getResponseCode()).isNotEqualTo(Sample.SEND_FAILED);
        assertThat(row.ofMessages()).as("a failed connect is no message's row").isFalse();
        assertThat(thread.books().sent()).isEqualTo(1);
        assertThat(thread.books().failed()).isEqualTo(1);
    }

    @Test
    void anUnreadableMessageIsAConfigErrorRow() throws Exception {
        thread = new UnreachableThread(1, SendMode.FIRE_AND_FORGET);
        thread.unreadable = new IllegalArgumentException("Parameter 'payload' has value '{{nope}}'");

        SenderRow row = sender(1).sample(null, "send");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
        assertThat(row.result().getResponseMessage()).contains("'{{nope}}'");
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void stopWhileWaitingForTheNextMessageReportsNothingAndSendsNothing() throws IOException, InterruptedException {
        thread = new UnreachableThread(1, SendMode.FIRE_AND_FORGET);
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
}
