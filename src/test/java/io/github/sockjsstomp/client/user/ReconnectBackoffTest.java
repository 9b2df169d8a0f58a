package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReconnectBackoffTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Always the same fraction of the random half: 0 = least, 1 = most. */
    private static final class FixedRandom implements RandomGenerator {
        private final double fraction;

        FixedRandom(double fraction) {
            this.fraction = fraction;
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long nextLong(long bound) {
            return Math.min(bound - 1, (long) (bound * fraction));
        }
    }

    @ParameterizedTest
    @CsvSource({"1, 1000", "2, 2000", "3, 4000", "5, 16000", "6, 30000", "40, 30000", "2147483647, 30000"})
    void theCeilingDoublesFromMinUpToMax(int failures, long ceilingMillis) {
        assertThat(new ReconnectBackoff(1000, 30_000, new FixedRandom(0)).ceilingMillis(failures))
                .isEqualTo(ceilingMillis);
    }

    @ParameterizedTest
    @CsvSource({"0.0, 1, 500", "1.0, 1, 1000", "0.0, 3, 2000", "1.0, 3, 4000", "0.5, 9, 22500"})
    void aDelayIsHalfItsCeilingPlusUpToHalfAtRandom(double fraction, int failures, long delayMillis) {
        ReconnectBackoff backoff = new ReconnectBackoff(1000, 30_000, new FixedRandom(fraction));
        assertThat(backoff.delayNanos(failures)).isEqualTo(delayMillis * MS);
    }

    /** The reference pages say the waits as the code makes them: half the ceiling, plus up to half at random. */
    @ParameterizedTest
    @CsvSource({"docs/samplers.md", "docs/jvm-settings.md"})
    void theReferencePagesSayTheWaitIsHalfPlusUpToHalfAtRandom(String page) throws IOException {
        String row = Files.readAllLines(Path.of(System.getProperty("project.root", "."), page)).stream()
                .filter(line -> line.startsWith("| `sockjsstomp.reconnectMinMillis` |"))
                .findFirst()
                .orElseThrow();
        assertThat(row)
                .contains("`" + ReconnectBackoff.DEFAULT_MIN_MILLIS + "`")
                .contains("half of");
        assertThat(row).contains("up to half at random");
        ReconnectBackoff least = new ReconnectBackoff(1000, 30_000, new FixedRandom(0));
        assertThat(least.delayNanos(1)).isEqualTo(least.minMillis() / 2 * MS);
    }

    @Test
    void aFirstConnectIsDueAtOnce() {
        ReconnectBackoff.Schedule schedule = new ReconnectBackoff(1000, 30_000, new FixedRandom(1)).schedule();
        assertThat(schedule.isDue(123)).isTrue();
        assertThat(schedule.isWaiting()).isFalse();
        assertThat(schedule.failures()).isZero();
    }

    @Test
    void failedConnectsWaitLongerEachTimeUpToTheMax() {
        ReconnectBackoff.Schedule schedule = new ReconnectBackoff(1000, 8000, new FixedRandom(1)).schedule();
        long now = 5_000 * MS;
        List<Long> waits = new ArrayList<>();
        for (int attempt = 0; attempt < 6; attempt++) {
            schedule.failed(now);
            assertThat(schedule.isDue(schedule.dueNanos() - 1)).isFalse();
            assertThat(schedule.isDue(schedule.dueNanos())).isTrue();
            waits.add((schedule.dueNanos() - now) / MS);
            now = schedule.dueNanos();
        }
        assertThat(waits).containsExactly(1000L, 2000L, 4000L, 8000L, 8000L, 8000L);
    }

    @Test
    void aSessionThatStayedUpStartsOverFromTheMin() {
        ReconnectBackoff.Schedule schedule = new ReconnectBackoff(1000, 8000, new FixedRandom(1)).schedule();
        long now = 0;
        for (int attempt = 0; attempt < 4; attempt++) {
            schedule.failed(now);
            now = schedule.dueNanos();
        }
        schedule.connected(now);
        assertThat(schedule.isUp()).isTrue();
        assertThat(schedule.isWaiting()).isFalse();
        schedule.lost(now + 8000 * MS);
        assertThat(schedule.failures()).isEqualTo(1);
        assertThat(schedule.dueNanos() - (now + 8000 * MS)).isEqualTo(1000 * MS);
    }

    /** An ERROR right after CONNECT or SUBSCRIBE would otherwise reconnect at network speed. */
    @Test
    void aSessionLostSoonAfterItsConnectCountsAsOneMoreFailure() {
        ReconnectBackoff.Schedule schedule = new ReconnectBackoff(1000, 8000, new FixedRandom(1)).schedule();
        long now = 0;
        List<Long> waits = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            schedule.connected(now);
            schedule.lost(now + 10 * MS);
            waits.add((schedule.dueNanos() - now - 10 * MS) / MS);
            now = schedule.dueNanos();
        }
        assertThat(waits).containsExactly(1000L, 2000L, 4000L, 8000L, 8000L);
    }

    @Test
    void usersLostTogetherComeBackSpreadOut() {
        ReconnectBackoff backoff = new ReconnectBackoff(1000, 30_000, RandomGenerator.of("L64X128MixRandom"));
        List<Long> due = new ArrayList<>();
        for (int user = 0; user < 100; user++) {
            ReconnectBackoff.Schedule schedule = backoff.schedule();
            schedule.failed(0);
            due.add(schedule.dueNanos() / MS);
        }
        assertThat(due).allSatisfy(d -> assertThat(d).isBetween(500L, 1000L));
        assertThat(due.stream().distinct().count()).isGreaterThan(50);
    }

    @ParameterizedTest
    @CsvSource({"0, 1000", "1000, 999", "-5, 10"})
    void badDelaysAreRefused(long min, long max) {
        assertThatThrownBy(() -> new ReconnectBackoff(min, max, new FixedRandom(0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("min=" + min);
    }
}
