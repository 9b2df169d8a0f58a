package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.steps.StepPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/capacity.md's stepped run for Spring's greeting app, read from the doc and run through bash as a user copies
 * it, against the app as published: its 1 s pause in every greeting on Spring's default inbound pool (twice this
 * JVM's cores), so it answers twice the cores greetings a second. Only the port and the run's length change, through
 * the properties the stepped ITs shorten ({@link #SHORTER}). The run must hold every step below that limit, break at
 * the first step above it, call that the server's limit, and stop one step later. Steps, verdicts, whose limit, the
 * console's lines and their order, and each step's books are asserted, never durations.
 */
class GreetingAppCapacityIT {

    /**
     * The users at once (send.jmx's steps begin when they are online, not before {@code rampUp}); steps of 1 s ramp
     * and 6 s hold; a reply LOST after 3 s. A step's verdict comes 4.5 s after its hold (the reply timeout + 1.5 s),
     * so the break's verdict is told within the next step, as with the doc's holds, and the steps stop after that one.
     */
    private static final List<String> SHORTER =
            List.of("rampUp=0", "stepRampSeconds=1", "stepHoldSeconds=6", "replyTimeoutMillis=3000");

    /**
     * How far below and above the app's limit the steps on either side of it must be: a step at the limit could hold
     * or break, one a quarter off it cannot.
     */
    private static final double MARGIN = 1.25;

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    /** The docs' line this test runs: send.jmx against the greeting app's endpoint, in steps. */
    static boolean runs(ReadmeCommand command) {
        return "send".equals(command.plan())
                && GreetingApp.ENDPOINT.equals(command.properties().get("endpoint"))
                && command.properties().containsKey("steps");
    }

    @Test
    void theDocsSteppedRunHoldsBelowThePublishedAppsLimitAndBreaksAboveItTheServersLimit() throws Exception {
        List<ReadmeCommand> lines = ReadmeCommand.all(PlanRun.projectRoot()).stream()
                .filter(GreetingAppCapacityIT::runs)
                .toList();
        assertThat(lines).as("the greeting app's stepped line in the docs").hasSize(1);
        ReadmeCommand line = lines.get(0);
        assertThat(line.where()).anySatisfy(where -> assertThat(where).startsWith("docs/capacity.md:"));
        Map<String, String> asked = line.properties();
        assertThat(asked).containsEntry("stopOnBreak", "true").containsKeys("users", "sloP99Millis", "sloLostPercent");
        List<Double> offers = StepPlan.parse(asked.get("steps"), StepKind.RATE);
        assertThat(offers).isSorted();

        try (GreetingApp app = GreetingApp.start()) {
            double limit = app.greetingsPerSecond();
            int below = (int) offers.stream().filter(offer -> offer < limit).count();
            assertThat(below)
                    .as("steps %s below the app's %s greetings a second on this machine, and one above", offers, limit)
                    .isPositive()
                    .isLessThan(offers.size());
            assertThat(offers.get(below - 1) * MARGIN)
                    .as("the last step below %s a second, a quarter below it", limit)
                    .isLessThanOrEqualTo(limit);
            assertThat(offers.get(below))
                    .as("the first step above %s a second", limit)
                    .isGreaterThanOrEqualTo(limit * MARGIN);

            Path work = Files.createTempDirectory(dir, "run-");
            Path console = ReadmeCommandsIT.runInBash(line, app.port(), SHORTER, work);

            List<Map<String, String>> steps = SteppedCapacityIT.stepsLog(work.resolve("stomp-steps.csv"), console);
            // held below the limit, broke at the step above it, and one more step (stopOnBreak) that broke too
            int ran = Math.min(below + 2, offers.size());
            List<String> verdicts = new ArrayList<>();
            for (int step = 1; step <= ran; step++) {
                verdicts.add(step <= below ? "held" : "broke");
            }
            assertThat(steps).extracting(r -> r.get("verdict")).containsExactlyElementsOf(verdicts);
            assertThat(steps)
                    .extracting(r -> Double.parseDouble(r.get("offered")))
                    .containsExactlyElementsOf(offers.subList(0, ran));
            assertThat(steps).extracting(r -> r.get("users")).containsOnly(asked.get("users"));
            Map<String, String> knee = steps.get(below);
            // the server's limit, unless other work filled this machine then (the verdict's rule: the machine's)
            String whose = SteppedCapacityIT.machineSaturated(knee) ? "machine" : "server";
            assertThat(knee.get("limit")).isEqualTo(whose);
            assertThat(knee.get("reason")).containsAnyOf("p99 ", "lost ").doesNotContain("generator: ");
            for (Map<String, String> held : steps.subList(0, below)) {
                assertThat(held.get("answered") + " answered, " + held.get("lost") + " lost, " + held.get("failed")
                                + " failed")
                        .as("step %s", held.get("step"))
                        .isEqualTo(held.get("sent") + " answered, 0 lost, 0 failed");
            }
            PlanRun run =
                    new PlanRun(work, PlanRun.readCsv(work.resolve("results.jtl")), work.resolve("stomp-timing.csv"));
            SteppedCapacityIT.assertExactBooksPerStep(run, steps);
            assertThat(run.books().balanced()).as(run.books().line()).isTrue();
            // one sample per step, failed where it broke
            assertThat(run.rows().stream().filter(r -> r.get("label").startsWith("step ")))
                    .extracting(r -> r.get("label") + " " + r.get("success") + " " + r.get("responseCode"))
                    .containsExactlyElementsOf(stepSamples(steps));

            String heldOffer = StepPlan.format(offers.get(below - 1));
            String kneeOffer = StepPlan.format(offers.get(below));
            List<String> said = Files.readAllLines(console).stream()
                    .filter(l -> l.startsWith("stomp step") || l.startsWith("stomp capacity: "))
                    .toList();
            List<String> expected = new ArrayList<>(List.of(
                    "stomp steps: " + offers.size() + " steps of msg/s ("
                            + offers.stream().map(StepPlan::format).collect(Collectors.joining(", ")) + "), each 1.0 s "
                            + "ramp + 6.0 s hold, from when this engine's users are online",
                    "stomp steps begin: " + asked.get("users") + " of " + asked.get("users") + " users online at +"));
            for (int step = 1; step <= ran; step++) {
                expected.add("stomp step " + step + " of " + offers.size() + ": "
                        + StepPlan.format(offers.get(step - 1)) + " msg/s " + (step <= below ? "held (" : "broke ("));
            }
            expected.add("stomp capacity: held " + heldOffer + " msg/s (");
            assertThat(said).as("the console's steps lines, in order").hasSameSizeAs(expected);
            for (int i = 0; i < said.size(); i++) {
                assertThat(said.get(i)).startsWith(expected.get(i));
            }
            assertThat(said.get(said.size() - 1))
                    .contains("; broke at " + kneeOffer + " msg/s: ")
                    .contains(
                            whose.equals("server")
                                    ? "(the server's limit: the generator kept its pace)"
                                    : "(the machine's limit: ");
            assertThat(said.get(below + 2)).contains("broke (the " + whose + "'s limit: ");
        }
    }

    private static List<String> stepSamples(List<Map<String, String>> steps) {
        return steps.stream()
                .map(r -> "step " + r.get("step") + " " + r.get("verdict").equals("held") + " "
                        + (r.get("verdict").equals("held") ? "held" : "broke-" + r.get("limit")))
                .toList();
    }
}
