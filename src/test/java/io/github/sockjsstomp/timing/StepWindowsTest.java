package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A step's books count the messages SENT in its hold, whenever their outcome comes. */
class StepWindowsTest {

    @Test
    void countsEachMessageInTheWindowOfItsSendTimeOnly() {
        StepWindows windows = new StepWindows();
        StepWindows.Window first = windows.open(1_000, 2_000);
        StepWindows.Window second = windows.open(2_000, 3_000);
        windows.answered(1_000_000, 500); // sent at 1,000 ms: the first window's first millisecond
        windows.answered(1_999_999, 700);
        windows.lost(2_000_000); // sent at 2,000 ms: the second's
        windows.failed(2_500_000);
        windows.answered(3_000_000, 900); // after both holds
        windows.lost(999_999); // before both

        assertThat(first.sent()).isEqualTo(2);
        assertThat(first.answered()).isEqualTo(2);
        assertThat(first.latency().getMaxValue()).isBetween(700L, 701L);
        assertThat(second.sent()).isEqualTo(2);
        assertThat(second.lost()).isEqualTo(1);
        assertThat(second.failed()).isEqualTo(1);
        assertThat(second.latency().getTotalCount()).isZero();

        windows.close(first);
        windows.answered(1_500_000, 100); // a window closed counts no more
        assertThat(first.sent()).isEqualTo(2);
    }

    @Test
    void connectsStartedInAHoldAreCountedWithTheirOutcome() {
        StepWindows windows = new StepWindows();
        StepWindows.Window now = windows.open(System.currentTimeMillis() - 60_000, System.currentTimeMillis() + 60_000);
        long start = System.nanoTime();
        windows.connect(start, start + 2_000_000, true);
        windows.connect(start, start, false);
        assertThat(now.connects()).isEqualTo(2);
        assertThat(now.connectFailed()).isEqualTo(1);
        assertThat(now.connectMicros().getTotalCount()).isEqualTo(1);
    }
}
