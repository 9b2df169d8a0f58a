package io.github.sockjsstomp.threadusers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutagesTest {

    private static final long S = 1_000_000_000L;

    private final List<String> said = new ArrayList<>();
    private final Outages.Server server = new Outages.Server("ws://127.0.0.1:1/ws", 1000, 30_000, said::add);

    @Test
    void anOutageIsSaidOnceWhenAUserFailsAgainAndOnceWhenItIsBack() {
        server.waiting(3);
        server.failed("ConnectionRefused", 1, 0);
        assertThat(said).as("a first failure may be a blip").isEmpty();
        server.failed("ConnectionRefused", 2, S);
        server.failed("ConnectionRefused", 2, S);
        server.failed("ConnectTimeout", 5, 2 * S);
        assertThat(said)
                .containsExactly("stomp: ws://127.0.0.1:1/ws unreachable (ConnectionRefused): 3 sessions "
                        + "waiting to reconnect, retrying every 1-30 s");
        server.waiting(-1);
        server.connected(5 * S);
        server.connected(6 * S);
        assertThat(said)
                .hasSize(2)
                .last()
                .isEqualTo("stomp: ws://127.0.0.1:1/ws reachable again after 4 s "
                        + "(3 connects failed meanwhile): 2 sessions waiting to reconnect");
        server.failed("ConnectionRefused", 2, 7 * S);
        assertThat(said).as("the next outage").hasSize(3);
    }

    @Test
    void aServerThatRefusesAUserIsNotAnOutage() {
        server.failed("401", 3, 0);
        server.failed("StompError", 3, 0);
        server.connected(S);
        assertThat(said).isEmpty();
    }

    @Test
    void theLastThreadToLeaveForgetsTheServer() {
        Outages.Server first = Outages.join("ws://127.0.0.1:2/ws", 1000, 2000);
        Outages.Server second = Outages.join("ws://127.0.0.1:2/ws", 1000, 2000);
        assertThat(second).isSameAs(first);
        first.waiting(2);
        first.release(1);
        second.release(1);
        assertThat(first.waiting()).isZero();
        assertThat(Outages.join("ws://127.0.0.1:2/ws", 1000, 2000)).isNotSameAs(first);
    }

    @ParameterizedTest
    @CsvSource({"1000, 1", "30000, 30", "500, 0.5", "1500, 1.5", "250, 0.3"})
    void delaysAreSaidInSeconds(long millis, String seconds) {
        assertThat(Outages.seconds(millis)).isEqualTo(seconds);
    }
}
