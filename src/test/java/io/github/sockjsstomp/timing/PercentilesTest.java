package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    private static Histogram of(long... values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void takesTheHigherSampleAsAnalysisDoes() {
        long[] values = new long[100];
        Arrays.setAll(values, i -> i + 1);
        Histogram h = of(values);
        assertThat(Percentiles.higher(h, 0.99)).isEqualTo(100); // index ceil(0.99 * 99) = 99
        assertThat(h.getValueAtPercentile(99)).isEqualTo(99); // HdrHistogram's nearest rank: one lower
        assertThat(Percentiles.higher(h, 0.5)).isEqualTo(51); // index ceil(49.5) = 50
        assertThat(Percentiles.higher(h, 0.0)).isEqualTo(1);
        assertThat(Percentiles.higher(h, 1.0)).isEqualTo(100);
    }

    @Test
    void oneSampleIsEveryPercentileAndNoneIsZero() {
        assertThat(Percentiles.higher(of(1834), 0.999)).isEqualTo(1834);
        assertThat(Percentiles.higher(of(1834), 0.0)).isEqualTo(1834);
        assertThat(Percentiles.higher(new Histogram(3), 0.5)).isZero();
    }

    @Test
    void agreesWithTheExactDefinitionWithinTheHistogramsPrecision() {
        SplittableRandom random = new SplittableRandom(7);
        long[] values = new long[10_007];
        Arrays.setAll(values, i -> 200 + (long) (Math.exp(random.nextDouble() * 9) * (1 + random.nextInt(40))));
        Histogram h = of(values);
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double q : new double[] {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999}) {
            long exact = sorted[(int) Math.ceil(q * (sorted.length - 1))];
            long got = Percentiles.higher(h, q);
            assertThat(got).as("q=%s", q).isBetween(exact, h.highestEquivalentValue(exact));
        }
    }

    @Test
    void refusesAQuantileOutsideZeroToOne() {
        assertThatThrownBy(() -> Percentiles.higher(of(1), 99))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("99");
    }
}
