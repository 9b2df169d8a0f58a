package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Latencies recorded per thread read back as one: counts, values and what each read has seen. */
class ThreadLatenciesTest {

    private final ThreadLatencies latencies = new ThreadLatencies();

    /** Four threads, each a thousand values of its own: every value is in the merge, whichever thread wrote it. */
    @Test
    void everyThreadsValuesAreInTheMerge() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int t = 1; t <= 4; t++) {
            long value = t * 1_000L;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 1_000; i++) {
                    latencies.record(value);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }

        Histogram all = latencies.copy();
        assertThat(all.getTotalCount()).isEqualTo(4_000);
        for (int t = 1; t <= 4; t++) {
            assertThat(all.getCountAtValue(t * 1_000L))
                    .as("thread %d's values", t)
                    .isEqualTo(1_000);
        }
    }

    /** A copy takes nothing away: the recent ones are still there for the summary, and the copy keeps them all. */
    @Test
    void recentIsWhatCameSinceTheLastTakeWhateverCopiesWereMadeMeanwhile() throws Exception {
        latencies.record(100);
        Thread other = new Thread(() -> latencies.record(200));
        other.start();
        other.join();
        assertThat(latencies.copy().getTotalCount()).isEqualTo(2);

        Histogram first = latencies.takeRecent();
        assertThat(first.getTotalCount()).isEqualTo(2);
        assertThat(first.getMaxValue()).isEqualTo(200);

        latencies.record(300);
        assertThat(latencies.copy().getTotalCount()).isEqualTo(3);
        Histogram second = latencies.takeRecent();
        assertThat(second.getTotalCount()).isEqualTo(1);
        assertThat(second.getMinValue()).isEqualTo(300);

        assertThat(latencies.takeRecent().getTotalCount()).isZero();
        assertThat(latencies.copy().getTotalCount()).isEqualTo(3);
    }

    /** A value an hour long fits: the histograms resize rather than refuse it. */
    @Test
    void aLongLatencyIsKept() {
        latencies.record(3_600_000_000L);
        assertThat(latencies.copy().getMaxValue()).isGreaterThanOrEqualTo(3_600_000_000L);
    }
}
