package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.apps.AppStompClient;
import io.github.sockjsstomp.apps.GreetingApp;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.WebSocketHttpHeaders;

/** The actuator source against Spring's greeting app with Boot's actuator and the sessions gauge of the docs. */
class ActuatorSourceTest {

    private static GreetingApp app;
    private static FigureHttp http;

    @BeforeAll
    static void start() {
        app = GreetingApp.start(false, 0);
        http = new FigureHttp(2000);
    }

    @AfterAll
    static void stop() throws IOException {
        http.close();
        app.close();
    }

    private static Map<String, Double> byMetric(List<Figure> figures) {
        return figures.stream().collect(Collectors.toMap(Figure::metric, Figure::value));
    }

    @Test
    void readsCpuHeapGcPausesAndTheSessionsTheAppHolds() throws Exception {
        ActuatorSource source =
                new ActuatorSource(new SourceSpec(SourceSpec.ACTUATOR, app.baseUrl() + "/actuator"), http);
        try (AppStompClient client = new AppStompClient()) {
            String url = "ws://127.0.0.1:" + app.port() + GreetingApp.ENDPOINT;
            StompSession first = client.connect(url, false, new WebSocketHttpHeaders(), new StompHeaders())
                    .await();
            StompSession second = client.connect(url, false, new WebSocketHttpHeaders(), new StompHeaders())
                    .await();

            Map<String, Double> firstPoll = byMetric(source.poll());
            assertThat(firstPoll)
                    .containsKeys(Figure.PROCESS_CPU, Figure.CPU_SECONDS, Figure.HEAP_USED_BYTES, Figure.SESSIONS)
                    .as("a pause time is a difference: none at the first poll")
                    .doesNotContainKey(Figure.GC_PAUSE_MS);
            assertThat(firstPoll.get(Figure.SESSIONS)).isEqualTo(2.0);
            assertThat(firstPoll.get(Figure.PROCESS_CPU)).isBetween(0.0, 1.0);
            assertThat(firstPoll.get(Figure.HEAP_USED_BYTES)).isPositive();

            first.disconnect();
            second.disconnect();
            Map<String, Double> secondPoll = byMetric(source.poll());
            assertThat(secondPoll.get(Figure.GC_PAUSE_MS)).isNotNull().isGreaterThanOrEqualTo(0.0);
            assertThat(secondPoll.get(Figure.SESSIONS)).isLessThanOrEqualTo(2.0);
            assertThat(secondPoll.get(Figure.CPU_SECONDS))
                    .as("the JVM's CPU time so far, in seconds, never less at a later poll")
                    .isPositive()
                    .isGreaterThanOrEqualTo(firstPoll.get(Figure.CPU_SECONDS));
        }
    }

    @Test
    void aSessionsMetricOfAnotherNameIsReadWhenNamed() throws Exception {
        ActuatorSource source = new ActuatorSource(
                new SourceSpec(SourceSpec.ACTUATOR, app.baseUrl() + "/actuator?sessions=jvm.threads.live"), http);
        assertThat(byMetric(source.poll()).get(Figure.SESSIONS)).isPositive();
    }

    @Test
    void anAppWithoutTheMetricsEndpointSaysWhatToExpose() {
        ActuatorSource source =
                new ActuatorSource(new SourceSpec(SourceSpec.ACTUATOR, app.baseUrl() + "/not-the-actuator"), http);
        assertThatThrownBy(source::poll)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("management.endpoints.web.exposure.include=metrics");
    }
}
