package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CountedCausesTest {

    @Test
    void eachCauseIsSaidOnceThenCountedAndTheLinesPutTheMostFrequentFirst() {
        CountedCauses causes = new CountedCauses(10);
        assertThat(causes.add("403 Handshake refused")).isTrue();
        assertThat(causes.add("403 Handshake refused")).isFalse();
        assertThat(causes.add("ConnectionRefused")).isTrue();
        assertThat(causes.add("403 Handshake refused")).isFalse();

        assertThat(causes.total()).isEqualTo(4);
        assertThat(causes.lines()).containsExactly("3 x 403 Handshake refused", "1 x ConnectionRefused");
    }

    @Test
    void causesBeyondTheBoundAreCountedTogetherAndNotSaid() {
        CountedCauses causes = new CountedCauses(2);
        assertThat(causes.add("a")).isTrue();
        assertThat(causes.add("b")).isTrue();
        assertThat(causes.add("c")).isFalse();
        assertThat(causes.add("d")).isFalse();
        assertThat(causes.add("a")).isFalse();

        assertThat(causes.total()).isEqualTo(5);
        assertThat(causes.lines())
                .containsExactly(
                        "2 x a", "1 x b", "2 x other causes (only the first 2 distinct causes are told apart)");
    }

    @Test
    void manyThreadsSeeingTheSameCauseSayItExactlyOnceAndCountEveryOne() throws Exception {
        CountedCauses causes = new CountedCauses(10);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> firsts = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                firsts.add(pool.submit(() -> {
                    int said = 0;
                    for (int i = 0; i < 1000; i++) {
                        said += causes.add("refused") ? 1 : 0;
                    }
                    return said;
                }));
            }
            int said = 0;
            for (Future<Integer> first : firsts) {
                said += first.get(30, TimeUnit.SECONDS);
            }
            assertThat(said).isEqualTo(1);
            assertThat(causes.lines()).containsExactly("8000 x refused");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> new CountedCauses(0))
                .hasMessageContaining("maxCauses")
                .hasMessageContaining("0");
    }
}
