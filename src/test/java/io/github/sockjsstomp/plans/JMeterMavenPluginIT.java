package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load test in a CI pipeline, as docs/ci.md shows it: the plugin jar installed into a local Maven repository (the
 * build's own, {@link BuildRepository}: the user's ~/.m2 is only read) with the pom a release publishes, then
 * {@code examples/jmeter-maven/pom.xml} run by Maven, which lays out JMeter 5.6.3 with the jar in lib/ext, runs
 * jmx/send.jmx with the properties of the POM against the demo server and checks the results and the run's books.
 */
class JMeterMavenPluginIT {

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    Path dir;

    @Test
    void theExamplePomRunsSendJmxWithThePluginAndPassesOnZeroErrors() throws Exception {
        Path timingLog = dir.resolve("timing.csv");
        Path example = example();
        Path results = example.resolve("target/jmeter/results");
        String output = mvn(
                "verify.txt",
                true,
                example,
                "-Dstomp.port=" + demo.port(),
                "-Dstomp.threads=2",
                // long enough for the warm-up (on by default) on a busy machine, and messages after it
                "-Dstomp.duration=12",
                "-Dstomp.messagesPerSecond=20",
                "-Dstomp.timingLog=" + timingLog);
        // The published pom declares no dependency, so the JMeter it laid out has ours in lib/ext and none of what
        // the jar bundles (nor JMeter's own artifacts again) in lib/.
        Path home = jmeterHome(example.resolve("target"));
        try (var ext = Files.list(home.resolve("lib/ext"));
                var lib = Files.list(home.resolve("lib"))) {
            assertThat(ext.map(f -> f.getFileName().toString())).contains("jmeter-sockjs-stomp-" + version() + ".jar");
            assertThat(lib.map(f -> f.getFileName().toString()))
                    .noneMatch(f -> f.startsWith("spring-")
                            || f.startsWith("tomcat-")
                            || f.startsWith("HdrHistogram")
                            || f.startsWith("ApacheJMeter_"));
        }
        assertThat(output)
                .containsPattern("\\[echo\\] .*STOMP timing books: sent=[1-9]\\d* answered=\\d+ lost=0 failed=0 ");
        Matcher successful = Pattern.compile("Successful requests:\\s+(\\d+)").matcher(output);
        assertThat(successful.find()).as(output).isTrue();
        assertThat(output).containsPattern("Failed requests:\\s+0\\b");
        // The plugin counts every row of its results file: a reply row per message (send.jmx's replySamples,
        // its default: the send ticks themselves are not rows), and a session row with its four steps (index,
        // clientPull, connect, subscribe) per thread.
        List<Map<String, String>> rows = newestResults(results);
        List<Map<String, String>> replyRows =
                rows.stream().filter(r -> r.get("label").startsWith("reply ")).toList();
        assertThat(replyRows).isNotEmpty();
        assertThat(rows.stream().filter(r -> r.get("label").equals("send"))).isEmpty();
        assertThat(rows.stream().filter(r -> r.get("label").equals("session"))).hasSize(2);
        assertThat(Long.parseLong(successful.group(1))).isEqualTo(replyRows.size() + 2 * 5);
        long messages = replyRows.size();
        List<String> records = Files.readAllLines(timingLog, StandardCharsets.UTF_8);
        assertThat(records.get(0)).isEqualTo(PlanRun.TIMING_HEADER);
        // A message whose reply came in the drain, after the replies thread stopped (or in its last batch), is in
        // the timing log only.
        long drained = PlanRun.finishedFromTheLastReplyRow(rows, timingLog);
        assertThat(records.subList(1, records.size()))
                .allSatisfy(r -> assertThat(r.split(",")[1]).isEqualTo("ANSWERED"))
                .size()
                .as("timing records: a reply row each, %d in the drain aside", drained)
                .isBetween((int) messages, (int) (messages + drained));
    }

    /**
     * Lost messages fail the build even where no sample fails: every third message to the demo server's
     * {@code /app/echo-lossy} goes unanswered, and with {@code replySamples=false} the rows are the send ticks, which
     * succeed; JMeter's results check passes, the books check does not.
     */
    @Test
    void lostMessagesFailTheBuildThroughTheBooksWhenNoSampleFails() throws Exception {
        Path example = example();
        String output = mvn(
                "verify-lossy.txt",
                false,
                example,
                "-Dstomp.port=" + demo.port(),
                "-Dstomp.threads=2",
                "-Dstomp.duration=8",
                "-Dstomp.messagesPerSecond=10",
                "-Dstomp.destination=/app/echo-lossy",
                "-Dstomp.replySamples=false",
                "-Dstomp.timingLog=" + dir.resolve("lossy-timing.csv"));
        assertThat(output).containsPattern("Failed requests:\\s+0\\b");
        assertThat(output)
                .containsPattern("The run did not answer every message it sent: .*STOMP timing books: sent=\\d+ "
                        + "answered=\\d+ lost=[1-9]")
                .contains("BUILD FAILURE");
    }

    private static String version() {
        return System.getProperty("project.version", "0.1.0");
    }

    /**
     * The jar in the build's local repository with the pom a release publishes, and the example as a user's checkout
     * has it (jmx/ two levels up) in this test's own directory: the plugin writes its JMeter home and results under
     * the example's target/, which must not be the source tree's.
     */
    private Path example() throws IOException {
        Path root = PlanRun.projectRoot();
        String version = version();
        Path jar = Path.of(System.getProperty("plugin.jar", "target/jmeter-sockjs-stomp-" + version + ".jar"));
        Path pom = Path.of(System.getProperty("published.pom", ".flattened-pom.xml"));
        BuildRepository.install(
                jar.toAbsolutePath(), pom.toAbsolutePath(), "io.github.sockjsstomp", "jmeter-sockjs-stomp", version);
        Path checkout = Files.createDirectories(dir.resolve("checkout-" + System.nanoTime()));
        Path example = Files.createDirectories(checkout.resolve("examples/jmeter-maven"));
        Files.copy(root.resolve("examples/jmeter-maven/pom.xml"), example.resolve("pom.xml"));
        Files.createSymbolicLink(checkout.resolve("jmx"), root.resolve("jmx"));
        return example;
    }

    /** The JMeter home the jmeter-maven-plugin laid out under the example's target/ (its lib/ext has JMeter's core). */
    private static Path jmeterHome(Path target) throws IOException {
        try (var tree = Files.walk(target)) {
            return tree.filter(p -> p.getFileName().toString().startsWith("ApacheJMeter_core")
                            && p.getParent().endsWith(Path.of("lib", "ext")))
                    .map(p -> p.getParent().getParent().getParent())
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no lib/ext with JMeter's core under " + target));
        }
    }

    /** The rows of the newest results file the plugin wrote. */
    private static List<Map<String, String>> newestResults(Path results) throws Exception {
        Path newest;
        try (var files = Files.list(results)) {
            newest = files.filter(f -> f.toString().endsWith(".csv"))
                    .max(Comparator.comparingLong(f -> f.toFile().lastModified()))
                    .orElseThrow();
        }
        return PlanRun.readCsv(newest);
    }

    /** The example's {@code mvn verify}, which must pass (or fail: {@code passes} false), and what it printed. */
    private String mvn(String outputName, boolean passes, Path example, String... properties) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                "mvn",
                "-B",
                "-ntp",
                "-s",
                BuildRepository.settings(dir).toString(),
                "-Dmaven.repo.local=" + BuildRepository.local(),
                "-f",
                example.resolve("pom.xml").toString(),
                "verify",
                "-Dsockjsstomp.version=" + version()));
        command.addAll(List.of(properties));
        Path output = dir.resolve(outputName);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // Maven's JVM and the JMeter the plugin forks (java -jar, its own options from the POM) each live seconds:
        // C2's compiles and G1's threads are CPU they never get back, as for the tests' JMeters (see the failsafe
        // configuration). JAVA_TOOL_OPTIONS reaches both: 19-21 CPU-s of the build -> 11-12 (load 2-5), the same
        // run and rows. Their temporary files (the warm-up's timing logs) in this test's directory.
        String options = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Djava.io.tmpdir=" + dir;
        builder.environment().merge("JAVA_TOOL_OPTIONS", options, (outer, ours) -> outer + " " + ours);
        Process process = builder.start();
        int exit = PlanRun.waitFor(process, command, output);
        String printed = Files.readString(output);
        if (passes) {
            assertThat(exit).as("%s\n%s", command, printed).isZero();
        } else {
            assertThat(exit).as("%s\n%s", command, printed).isNotZero();
        }
        return printed;
    }
}
