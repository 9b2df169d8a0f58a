package io.github.sockjsstomp.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.timing.Books;
import io.github.sockjsstomp.timing.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WarmUpTest {

    /**
     * Every warm-up message goes round the in-process peer and is answered; the run's own tracker sees none
     * of them, and the temporary timing log is gone.
     */
    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"RAW", "WEBSOCKET"})
    void sendsEveryMessageRoundThePeerAndLeavesTheRunsBooksAlone(Transport transport) throws Exception {
        Run run = Run.join(0, 0, r -> {});
        try {
            Books before = run.tracker().books();
            WarmUp.Result result =
                    WarmUpRun.run(SharedStompClients.get(ClientSettings.defaults()), transport, 10_000, 300, 60_000);
            assertThat(result.problem()).isNull();
            assertThat(result.sent()).isEqualTo(300);
            assertThat(result.answered()).isEqualTo(300);
            assertThat(run.tracker().books()).isEqualTo(before);
            assertThat(run.tracker().ids().prefix()).isNotEmpty();
            try (Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
                assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("stomp-warm-up-"));
            }
        } finally {
            run.leave();
        }
    }

    /**
     * Stops at its time limit, whatever its message count. The limit covers the connect too: the warm-up's own
     * (1.5 s), not a shorter one, so that a cold JVM on a loaded machine still sends before it ends.
     */
    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"RAW"})
    void stopsAtItsTimeLimit(Transport transport) {
        WarmUp.Result result = WarmUpRun.run(
                SharedStompClients.get(ClientSettings.defaults()),
                transport,
                0,
                Integer.MAX_VALUE,
                WarmUp.DEFAULT_LIMIT_MILLIS);
        assertThat(result.problem()).isNull();
        assertThat(result.sent()).isPositive().isLessThan(Integer.MAX_VALUE);
    }

    /** A stopped test (an interrupted thread) ends the warm-up at once, and it says so. */
    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"RAW"})
    void endsWhenTheTestIsStopped(Transport transport) {
        Thread.currentThread().interrupt();
        try {
            WarmUp.Result result = WarmUpRun.run(
                    SharedStompClients.get(ClientSettings.defaults()), transport, 0, Integer.MAX_VALUE, 60_000);
            assertThat(result.problem()).startsWith("interrupted");
            assertThat(result.sent())
                    .as("stopped before its connect was answered")
                    .isZero();
            assertThat(Thread.currentThread().isInterrupted())
                    .as("the interrupt is kept")
                    .isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    /** XHR transports are not warmed; each other kind once per JVM. */
    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"XHR", "XHR_STREAMING"})
    void xhrIsNotWarmed(Transport transport) {
        assertThat(WarmUp.once(SharedStompClients.get(ClientSettings.defaults()), transport, 0, 10, 1_000))
                .isEmpty();
    }
}
