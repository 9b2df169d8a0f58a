package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.timing.SendMode;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The closed loop's decisions on a thread whose server is gone ({@link UnreachableThread}): which row a sample is,
 * what the books hold after it, when it reports nothing. Counts and contents, never durations.
 */
class ClosedLoopSenderTest {

    private UnreachableThread thread;

    @AfterEach
    void close() {
        Thread.interrupted();
        if (thread != null) {
            thread.close();
        }
    }

    private ClosedLoopSender sender() {
        return new ClosedLoopSender(thread, 0, 100, 10);
    }

    @Test
    void aRefusalNoSampleSaidIsARowOfItsOwnBeforeAnyRoundTrip() throws IOException {
        thread = new UnreachableThread(2, SendMode.AWAIT_REPLY);
        thread.refused(0, "Unknown destination /app/nowhere");

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.SERVER_ERROR);
        assertThat(row.result().getResponseMessage()).contains("Unknown destination /app/nowhere");
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void anUnreadableMessageIsAConfigErrorRowAndNoUserSends() throws IOException {
        thread = new UnreachableThread(1, SendMode.AWAIT_REPLY);
        thread.unreadable = new IllegalArgumentException("Parameter 'destination' has value '{{nope}}'");

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void stopBeforeTheSampleReportsNothingAndNoUserSends() throws IOException {
        thread = new UnreachableThread(1, SendMode.AWAIT_REPLY);

        Thread.currentThread().interrupt(); // JMeter's Stop
        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void aUserFoundDownIsNotSentOnAndItsFailedReconnectIsARowOfItsOwn() throws IOException {
        thread = new UnreachableThread(1, SendMode.AWAIT_REPLY);

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().getSampleLabel()).isEqualTo("echo reconnect");
        assertThat(row.result().isSuccessful()).isFalse();
        assertThat(row.ofMessages()).as("a failed connect is no round trip").isFalse();
        assertThat(thread.books().sent())
                .as("nothing is sent on a user that is down")
                .isZero();
    }
}
