package io.github.sockjsstomp.client.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InflateHistoryTest {

    private static byte[] kept(InflateHistory history) {
        return Arrays.copyOf(history.bytes(), history.length());
    }

    @Test
    void keepsAsMuchAsWasSentNotTheWholeWindow() {
        InflateHistory history = new InflateHistory(32 * 1024);
        history.append("CONNECTED".getBytes(), 0, 9);
        assertThat(kept(history)).isEqualTo("CONNECTED".getBytes());
        assertThat(history.bytes().length).isLessThan(1024);
    }

    @Test
    void keepsTheLastWindowOfEverythingAppendedInOrder() {
        int limit = 1000;
        InflateHistory history = new InflateHistory(limit);
        byte[] all = new byte[10_000];
        new Random(7).nextBytes(all);
        int[] sizes = {1, 300, 999, 1000, 1001, 17, 4000, 5, 2677};
        int at = 0;
        for (int size : sizes) {
            history.append(all, at, size);
            at += size;
            int from = Math.max(0, at - limit);
            assertThat(kept(history)).as("after %d bytes", at).isEqualTo(Arrays.copyOfRange(all, from, at));
        }
        assertThat(history.bytes().length).isEqualTo(limit);
    }
}
