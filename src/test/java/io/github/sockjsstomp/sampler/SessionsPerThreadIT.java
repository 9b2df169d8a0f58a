package io.github.sockjsstomp.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.timing.Books;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Threads that own several sessions each, and the three ways users get their credentials. */
class SessionsPerThreadIT {

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    Path dir;

    private static Map<String, String> base() {
        Map<String, String> params = new HashMap<>();
        params.put("host", "127.0.0.1");
        params.put("port", Integer.toString(demo.port()));
        // The demo server's login steps: its index sets the session cookie the handshake needs.
        params.put("indexPath", "/index");
        params.put("pullPath", "/clientPull");
        params.put("heartbeatMillis", "0");
        params.put("timingLog", "none");
        return params;
    }

    private static List<String[]> records(Path timingLog) throws Exception {
        List<String> lines = Files.readAllLines(timingLog, StandardCharsets.UTF_8);
        return lines.subList(1, lines.size()).stream()
                .map(line -> line.split(",", -1))
                .toList();
    }

    @Test
    void threadsSendRoundRobinOverTheirSessionsWithExactBooks() throws Exception {
        Path timingLog = dir.resolve("echo.csv");
        int threads = 3;
        int perThread = 20;
        List<List<SampleResult>> results;
        Books books;
        try (SamplerHarness harness = new SamplerHarness(threads)) {
            Map<String, String> p = base();
            p.put("login", "user-{{userNumber}}");
            p.put("sessionsPerThread", Integer.toString(perThread));
            p.put("subscribeTo", "/user/queue/echo");
            p.put("mode", "await-reply");
            p.put("timingLog", timingLog.toString());
            results = harness.run(threads, StompSendSampler::new, i -> p, 2 * perThread);
            harness.endTest();
            books = harness.books();
        }
        assertThat(results.stream().flatMap(List::stream))
                .hasSize(threads * 2 * perThread)
                .allSatisfy(r -> assertThat(r.isSuccessful())
                        .as(r.getResponseCode() + " " + r.getResponseMessage())
                        .isTrue());
        assertThat(books.sent()).isEqualTo(threads * 2 * perThread);
        assertThat(books.answered()).isEqualTo(books.sent());
        List<String[]> records = records(timingLog);
        assertThat(records)
                .hasSize(threads * 2 * perThread)
                .allSatisfy(r -> assertThat(r[4]).isEqualTo(r[5]));
        // Every session sent twice, under its own login: user-1 .. user-60.
        Map<String, Long> perSender = records.stream().collect(Collectors.groupingBy(r -> r[4], Collectors.counting()));
        assertThat(perSender)
                .hasSize(threads * perThread)
                .allSatisfy((sender, count) -> assertThat(count).isEqualTo(2));
        assertThat(perSender.keySet()).contains("user-1", "user-20", "user-21", "user-60");
    }

    @Test
    void connectSamplerConnectsEachSessionAsASampleThenReportsAllAlive() throws Exception {
        int perThread = 5;
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base();
            p.put("login", "holder-{{userNumber}}");
            p.put("sessionsPerThread", Integer.toString(perThread));
            p.put("subscribeTo", "/topic/idle-{{userNumber}}");
            List<SampleResult> results = harness.run(1, StompConnectSampler::new, i -> p, perThread + 2)
                    .get(0);
            assertThat(results)
                    .allSatisfy(r -> assertThat(r.isSuccessful())
                            .as(r.getResponseMessage())
                            .isTrue());
            assertThat(results.subList(0, perThread)).allSatisfy(r -> {
                assertThat(r.getSampleLabel()).isEqualTo("StompConnectSampler");
                assertThat(r.getSubResults())
                        .extracting(SampleResult::getSampleLabel)
                        .containsExactly("index", "clientPull", "connect", "subscribe");
            });
            // One label for every destination: the destination is in the sub-result's message. Connects under way
            // together (connectsInFlight) end, and are reported, in the order they finish.
            assertThat(results.subList(0, perThread).stream().map(r -> r.getSubResults()[3].getResponseMessage()))
                    .containsExactlyInAnyOrder(
                            "SUBSCRIBE /topic/idle-1",
                            "SUBSCRIBE /topic/idle-2",
                            "SUBSCRIBE /topic/idle-3",
                            "SUBSCRIBE /topic/idle-4",
                            "SUBSCRIBE /topic/idle-5");
            assertThat(results.subList(perThread, perThread + 2)).allSatisfy(r -> {
                assertThat(r.getSampleLabel()).isEqualTo("StompConnectSampler alive");
                assertThat(r.getResponseMessage()).startsWith(perThread + " sessions alive");
            });
            assertThat(harness.users(0))
                    .hasSize(perThread)
                    .allSatisfy(u -> assertThat(u.isConnected()).isTrue());
            assertThat(harness.users(0).stream()
                            .map(u -> u.settings().credentials().login())
                            .collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder("holder-1", "holder-2", "holder-3", "holder-4", "holder-5");
        }
    }

    @Test
    void oneLoginForEveryUserIsSentAsItIs() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(3)) {
            Map<String, String> p = base();
            p.put("login", "guest");
            p.put("passcode", "guest");
            List<List<SampleResult>> results = harness.run(3, StompConnectSampler::new, i -> p, 1);
            assertThat(results.stream().flatMap(List::stream))
                    .allSatisfy(r -> assertThat(r.isSuccessful()).isTrue());
            for (int i = 0; i < 3; i++) {
                assertThat(harness.users(i).get(0).settings().credentials().login())
                        .isEqualTo("guest");
            }
        }
    }

    @Test
    void usersFileGivesEachSessionItsOwnCredentials() throws Exception {
        Path users = dir.resolve("users.csv");
        Files.writeString(users, "login,passcode\nalice,a-pass\nbob,b-pass\ncarol,c-pass\n", StandardCharsets.UTF_8);
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base();
            p.put("usersFile", users.toString());
            p.put("login", "ignored");
            p.put("sessionsPerThread", "3");
            harness.run(1, StompConnectSampler::new, i -> p, 3);
            assertThat(harness.users(0))
                    .extracting(u -> u.settings().credentials().login() + "/"
                            + u.settings().credentials().passcode())
                    .containsExactly("alice/a-pass", "bob/b-pass", "carol/c-pass");
            assertThat(harness.users(0))
                    .allSatisfy(u -> assertThat(u.isConnected()).isTrue());
        }
    }

    @Test
    void badSessionSettingsAreConfigErrorsNamingParameterAndValue() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base();
            p.put("sessionsPerThread", "0");
            p.put("connectsPerSecond", "fast");
            p.put("usersFile", dir.resolve("missing.csv").toString());
            p.put("users", "users.csv");
            p.put("login", "user-{{msgId}}");
            p.put("destination", "/queue/{{nope}}");
            // The session sampler has the session settings; the send sampler after it, the destination.
            SampleResult r =
                    harness.run(1, StompConnectSampler::new, i -> p, 1).get(0).get(0);
            StompSendSampler sender = new StompSendSampler();
            SampleResult send = harness.samples(harness.add(sender, SamplerHarness.context(sender, p)), 1)
                    .get(0);
            assertThat(r.getResponseCode()).isEqualTo("ConfigError");
            assertThat(r.getResponseMessage())
                    .contains("Parameter 'sessionsPerThread' has value '0'")
                    .contains("Parameter 'connectsPerSecond' has value 'fast'")
                    .contains("Parameter 'usersFile' has value '" + dir.resolve("missing.csv") + "': cannot be read")
                    .contains("Parameter 'users' has value 'users.csv': expected a whole number of virtual users")
                    .contains("a file of login,passcode lines is usersFile")
                    .contains("Parameter 'login' has value 'user-{{msgId}}': unknown placeholder {{msgId}}");
            assertThat(send.getResponseCode()).isEqualTo("ConfigError");
            assertThat(send.getResponseMessage()).contains("Parameter 'destination' has value '/queue/{{nope}}'");
        }
    }

    @Test
    void theConnectSamplerTellsThePlanWhenAllSessionsAreUp() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base();
            p.put("sessionsPerThread", "2");
            harness.run(1, StompConnectSampler::new, i -> p, 1);
            assertThat(harness.onThread(SessionsPerThreadIT::allConnected)).isEqualTo("false");
            assertThat(harness.sampleAgain(0).getSampleLabel()).isEqualTo("StompConnectSampler");
            assertThat(harness.onThread(SessionsPerThreadIT::allConnected)).isEqualTo("false");
            assertThat(harness.sampleAgain(0).getSampleLabel()).isEqualTo("StompConnectSampler alive");
            assertThat(harness.onThread(SessionsPerThreadIT::allConnected)).isEqualTo("true");
        }
    }

    @Test
    void aHostThatMakesNoUrlIsAConfigErrorNotAnException() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base();
            p.put("host", "bad host");
            SampleResult send =
                    harness.run(1, StompSendSampler::new, i -> p, 1).get(0).get(0);
            SampleResult r = harness.sessionSamples(0).get(0);
            assertThat(r.getResponseCode()).isEqualTo("ConfigError");
            assertThat(r.getResponseMessage())
                    .contains("Parameter 'host/endpoint' has value 'bad host /ws': do not make a URL");
            // No users to send on: the send sampler cannot run either.
            assertThat(send.getResponseCode()).isEqualTo("ConfigError");
        }
    }

    @Test
    void anUnknownHostIsAFailedConnectSample() throws Exception {
        try (SamplerHarness harness = new SamplerHarness(1)) {
            Map<String, String> p = base();
            p.put("host", "no-such-host.invalid");
            p.put("indexPath", "none");
            p.put("pullPath", "none");
            SampleResult r =
                    harness.run(1, StompSendSampler::new, i -> p, 1).get(0).get(0);
            assertThat(r.isSuccessful()).isFalse();
            assertThat(r.getResponseCode()).isEqualTo("UnknownHost");
            assertThat(harness.sessionSamples(0)).singleElement().satisfies(s -> {
                assertThat(s.isSuccessful()).isFalse();
                assertThat(s.getResponseCode()).isEqualTo("UnknownHost");
            });
        }
    }

    private static String allConnected() {
        return JMeterContextService.getContext().getVariables().get(StompParameters.ALL_CONNECTED_VARIABLE);
    }
}
