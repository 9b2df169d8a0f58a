package io.github.sockjsstomp.timing;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The one percentile definition of the project, the "higher" method of numpy and polars that {@code analysis/}
 * uses: for N samples sorted ascending, the q-quantile is the sample of 0-based index ceil(q * (N - 1)), always
 * an observed value (p0 the minimum, p100 the maximum). HdrHistogram's own {@code getValueAtPercentile} takes
 * the sample of 1-based rank ceil(q * N), one sample lower at the tail: p99 of 100 samples is the 99th, not
 * the 100th. Values come back at the histogram's precision (the highest value equivalent to the sample's).
 */
public final class Percentiles {

    private Percentiles() {}

    /** The q-quantile (0 to 1) of the recorded values; 0 when nothing was recorded. */
    public static long higher(Histogram histogram, double q) {
        if (q < 0 || q > 1) {
            throw new IllegalArgumentException("quantile " + q + " outside [0, 1]");
        }
        long n = histogram.getTotalCount();
        if (n == 0) {
            return 0;
        }
        long rank = Math.min(n, (long) Math.ceil(q * (n - 1)) + 1);
        long cumulative = 0;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            cumulative += v.getCountAtValueIteratedTo();
            if (cumulative >= rank) {
                return histogram.highestEquivalentValue(v.getValueIteratedTo());
            }
        }
        return histogram.getMaxValue();
    }
}
