package io.github.sockjsstomp.loops;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.timing.SendMode;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The closed loop's decisions on a thread whose server is gone ({@link TestThread#unreachable}): which row a sample is,
 * what the books hold after it, when it reports nothing, and what the thread's end time ({@link TestClock}) changes.
 * Counts and contents, never durations.
 */
class ClosedLoopSenderTest {

    private final TestClock clock = new TestClock();
    private TestThread thread;

    @AfterEach
    void close() {
        Thread.interrupted();
        if (thread != null) {
            thread.close();
        }
    }

    private ClosedLoopSender sender() {
        return new ClosedLoopSender(thread, 0, 100, 10, clock);
    }

    @Test
    void aRefusalNoSampleSaidIsARowOfItsOwnBeforeAnyRoundTrip() throws IOException {
        thread = TestThread.unreachable(2, SendMode.AWAIT_REPLY);
        thread.refused(0, "Unknown destination /app/nowhere");

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.SERVER_ERROR);
        assertThat(row.result().getResponseMessage()).contains("Unknown destination /app/nowhere");
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void anUnreadableMessageIsAConfigErrorRowAndNoUserSends() throws IOException {
        thread = TestThread.unreachable(1, SendMode.AWAIT_REPLY);
        thread.unreadable = new IllegalArgumentException("Parameter 'destination' has value '{{nope}}'");

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
        assertThat(row.ofMessages()).isFalse();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void stopBeforeTheSampleReportsNothingAndNoUserSends() throws IOException {
        thread = TestThread.unreachable(1, SendMode.AWAIT_REPLY);

        Thread.currentThread().interrupt(); // JMeter's Stop
        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.books().sent()).isZero();
    }

    @Test
    void aUserFoundDownIsNotSentOnAndItsFailedReconnectIsARowOfItsOwn() throws IOException {
        thread = TestThread.unreachable(1, SendMode.AWAIT_REPLY);

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().getSampleLabel()).isEqualTo("echo reconnect");
        assertThat(row.result().isSuccessful()).isFalse();
        assertThat(row.ofMessages()).as("a failed connect is no round trip").isFalse();
        assertThat(thread.books().sent())
                .as("nothing is sent on a user that is down")
                .isZero();
    }

    /** The same thread as above once its end time has passed: no user is found down, none reconnects or sends. */
    @Test
    void afterTheThreadsEndASampleWithNothingInFlightReportsNothingAndNoUserConnects() throws IOException {
        thread = TestThread.unreachable(1, SendMode.AWAIT_REPLY);
        clock.endsIn(0);

        SenderRow row = sender().sample(null, "echo");

        assertThat(row.result().isIgnore()).isTrue();
        assertThat(thread.run.capacity().connectFailures())
                .as("failed connects")
                .isEmpty();
        assertThat(thread.books().sent()).isZero();
    }

    /**
     * A sample that has its round trips ends at its {@code sampleMillis}, unless the thread's end comes within a
     * sample's length (at least 100 ms): JMeter calls no sample after the end time, so the last one runs to it.
     */
    @ParameterizedTest(name = "sampleMillis {0}, the end {1} ms away: the last sample {2}")
    @CsvSource({
        "500, 501, false",
        "500, 500, true",
        "500, 0, true",
        "20, 101, false",
        "20, 100, true",
        "20, 50, true",
        "20, , false",
    })
    void theLastSampleIsTheOneWhoseLengthOrATenthOfASecondReachesTheThreadsEnd(
            long sampleMillis, Long endInMillis, boolean last) throws IOException {
        thread = TestThread.unreachable(1, SendMode.AWAIT_REPLY);
        if (endInMillis != null) {
            clock.endsIn(TimeUnit.MILLISECONDS.toNanos(endInMillis));
        }

        assertThat(new ClosedLoopSender(thread, 0, sampleMillis, 10, clock).endsSoon())
                .isEqualTo(last);
    }
}
