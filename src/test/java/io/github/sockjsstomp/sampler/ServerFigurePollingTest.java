package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.samples.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The samplers' server-figure parameters: listed with their defaults, refused when bad, polled by the run. */
class ServerFigurePollingTest {

    @TempDir
    Path dir;

    @Test
    void theSessionAndReceiveSamplersListThemOffByDefault() {
        for (StompSampler sampler : List.of(new StompConnectSampler(), new StompReceiveSampler())) {
            assertThat(sampler.getDefaultParameters().getArgumentsAsMap())
                    .containsEntry("serverFigures", "")
                    .containsEntry("serverFiguresMillis", "1000")
                    .containsEntry("serverFiguresLog", "stomp-server.csv");
        }
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "serverFigures, prometheus:http://127.0.0.1:9, is not a source",
        "serverFigures, pid:0, no process 0 on this machine",
        "serverFigures, actuator:127.0.0.1:8080, expected an http or https URL",
        "serverFiguresMillis, 50, expected a whole number from 100 to 3600000"
    })
    void aBadValueIsAConfigErrorNamingIt(String parameter, String value, String problem) throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            StompConnectSampler session = new StompConnectSampler();
            Map<String, String> overrides = parameter.equals("serverFigures")
                    ? Map.of(parameter, value, "port", "9")
                    : Map.of(
                            parameter,
                            value,
                            "serverFigures",
                            "pid:" + ProcessHandle.current().pid(),
                            "port",
                            "9");
            int index = harness.add(session, SamplerHarness.context(session, overrides));
            SampleResult result = harness.samples(index, 1).get(0);
            assertThat(result.getResponseCode()).isEqualTo(Sample.CONFIG_ERROR);
            assertThat(result.getResponseMessage())
                    .contains("Parameter '" + parameter + "' has value '" + value + "'")
                    .contains(problem);
        }
    }

    @Test
    void theRunPollsFromTheFirstSamplerThatNamesSourcesAndStopsWhenItEnds() throws Exception {
        Path file = dir.resolve("server.csv");
        try (SamplerHarness harness = new SamplerHarness(2)) {
            StompConnectSampler quiet = new StompConnectSampler();
            StompConnectSampler polling = new StompConnectSampler();
            int first = harness.add(quiet, SamplerHarness.context(quiet, Map.of("port", "9")));
            int second = harness.add(
                    polling,
                    SamplerHarness.context(
                            polling,
                            Map.of(
                                    "port",
                                    "9",
                                    "serverFigures",
                                    "pid:" + ProcessHandle.current().pid(),
                                    "serverFiguresMillis",
                                    "100",
                                    "serverFiguresLog",
                                    file.toString())));
            harness.samples(first, 1);
            assertThat(pollerAlive()).as("no sources, no thread").isFalse();
            harness.samples(second, 1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (rows(file) < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(pollerAlive()).isTrue();
            harness.endTest();
        }
        assertThat(pollerAlive()).as("the run's end stops the polling").isFalse();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo("epoch_ms,source,metric,value");
        assertThat(lines.subList(1, lines.size()))
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line)
                        .matches("[0-9]+,(pid,(process_cpu|cpu_seconds|rss_bytes|threads)"
                                + "|generator,(run|sessions_held|messages_sent|rss_bytes|heap_used_bytes)),[0-9.]+"))
                .as("nothing connected to port 9: no session held, no message sent")
                .anyMatch(line -> line.endsWith(",generator,sessions_held,0"))
                .noneMatch(line -> line.matches(".*,generator,(sessions_held|messages_sent),[1-9].*"));
    }

    private static long rows(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    private static boolean pollerAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("stomp-server-figures") && t.isAlive());
    }
}
