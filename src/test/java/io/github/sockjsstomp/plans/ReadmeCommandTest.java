package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.plans.ReadmeCommandsIT.PlanItRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadmeCommandTest {

    @Test
    void wordsAreReadAsBashReadsThem() {
        assertThat(ReadmeCommand.words("jmeter -n '-Jpayload={\"name\":\"{{msgId}}\"}' -Ja=\"b c\" -Jd=e\\ f"))
                .containsExactly("jmeter", "-n", "-Jpayload={\"name\":\"{{msgId}}\"}", "-Ja=b c", "-Jd=e f");
        assertThat(ReadmeCommand.words("jmeter -Jf=pid:$(pgrep -f x | head -1) -l r.jtl"))
                .as("a command substitution is part of its word")
                .containsExactly("jmeter", "-Jf=pid:$(pgrep -f x | head -1)", "-l", "r.jtl");
    }

    @Test
    void aPlanItWatchingItsOwnServerCoversALineThatWatches() {
        PlanItRun it =
                new PlanItRun(ReadmeCommandsIT.class, "x", "echo", "serverFigures=pid:42", "serverFiguresMillis=200");
        assertThat(it.covers(line("-Jport=8080 -JserverFigures=actuator:http://127.0.0.1:8080/actuator")))
                .isTrue();
        assertThat(it.covers(line("-Jport=8080")))
                .as("a line that does not watch")
                .isTrue();
        assertThat(new PlanItRun(ReadmeCommandsIT.class, "x", "echo", "host=127.0.0.1")
                        .covers(line("-Jport=8080 -JserverFigures=pid:42")))
                .as("the IT does not watch")
                .isFalse();
    }

    @Test
    void aLineWithTheServersFiguresAddedRunsTheLineWithout() {
        ReadmeCommand plain = line("-Jport=61614 -Jendpoint=/");
        ReadmeCommand watched = line("-Jport=61614 -Jendpoint=/ -JserverFigures=pid:$(pgrep -f x | head -1)");
        assertThat(ReadmeCommandsIT.watchedRunOf(watched, plain)).isTrue();
        assertThat(ReadmeCommandsIT.watchedRunOf(plain, watched))
                .as("fewer properties")
                .isFalse();
        assertThat(ReadmeCommandsIT.watchedRunOf(watched, watched)).as("itself").isFalse();
        assertThat(ReadmeCommandsIT.watchedRunOf(line("-Jport=61614 -Jendpoint=/ -Jreceipts=true"), plain))
                .as("a property that changes the run")
                .isFalse();
        assertThat(ReadmeCommandsIT.watchedRunOf(line("-Jport=61614 -Jendpoint=/ws -JserverFigures=pid:1"), plain))
                .as("another value")
                .isFalse();
        assertThat(ReadmeCommandsIT.watchedRunOf(watched, line("-Jhost=127.0.0.1 -Jport=61614 -Jendpoint=/")))
                .as("a line that writes the plan's default host")
                .isTrue();
        assertThat(ReadmeCommandsIT.watchedRunOf(watched, line("-Jhost=10.0.0.5 -Jport=61614 -Jendpoint=/")))
                .as("another host")
                .isFalse();
    }

    @Test
    void aLineGivesItsPlanPropertiesAndOptions() {
        ReadmeCommand command = ReadmeCommand.parse(
                "target/jmeter/bin/jmeter -n -t jmx/send.jmx -l results.jtl -Jhost=127.0.0.1 -Jport=8080 -GtimingLog=t.csv -e",
                "README.md:1");
        assertThat(command.plan()).isEqualTo("send");
        assertThat(command.properties()).isEqualTo(Map.of("host", "127.0.0.1", "port", "8080", "timingLog", "t.csv"));
        assertThat(command.options()).containsExactly("-l", "results.jtl", "-e");
        assertThat(command.elsewhere()).isFalse();
        assertThat(ReadmeCommand.parse("jmeter -n -t jmx/send.jmx -Jport=15674", "x")
                        .elsewhere())
                .as("RabbitMQ's Web-STOMP: a node of the tests' own")
                .isFalse();
        assertThat(ReadmeCommand.parse("jmeter -n -t jmx/send.jmx -Jhost=stomp.example.com", "x")
                        .elsewhere())
                .isTrue();
        assertThat(ReadmeCommand.parse("jmeter -n -t jmx/send.jmx -Jport=8080 -R a,b", "x")
                        .elsewhere())
                .isTrue();
        assertThat(ReadmeCommand.parse("jmeter -n -t jmx/connect.jmx -Jthreads=5", "x")
                        .elsewhere())
                .as("no server of ours named")
                .isTrue();
    }

    @Test
    void linesAskingForTheSameAreOneInvocationWrittenInSeveralPlaces(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("jmx"));
        Files.writeString(
                root.resolve("README.md"),
                "```\ntarget/jmeter/bin/jmeter -n -t jmx/send.jmx -l results.jtl -Ja=1 \\\n  -Jb=2\n```\n");
        Files.writeString(
                root.resolve("jmx/README.md"),
                "| x | `target/jmeter/bin/jmeter -n -t jmx/send.jmx -l results.jtl -Jb=2 -Ja=1` |\n"
                        + "| y | `target/jmeter/bin/jmeter -n -t jmx/echo.jmx -l results.jtl -Jb=2 -Ja=1` |\n");
        List<ReadmeCommand> commands = ReadmeCommand.all(root);
        assertThat(commands).hasSize(2);
        assertThat(commands.get(0).where()).containsExactly("README.md:2", "jmx/README.md:1");
        assertThat(commands.get(0).properties()).isEqualTo(Map.of("a", "1", "b", "2"));
        assertThat(commands.get(1).plan()).isEqualTo("echo");
    }

    /** The consume steps' line of capacity.md and broker-consumers.md is one invocation, run by ArtemisAcksIT. */
    @Test
    void theConsumeStepsLineIsRunByArtemisAcksIT() throws Exception {
        List<ReadmeCommand> consume = ReadmeCommandsIT.commands().stream()
                .filter(c -> "consume".equals(c.properties().get("stepKind")))
                .toList();
        assertThat(consume)
                .singleElement()
                .satisfies(line -> assertThat(line.where()).hasSize(2));
        PlanItRun run = ReadmeCommandsIT.PLAN_IT_RUNS.stream()
                .filter(it -> it.covers(consume.get(0)))
                .findFirst()
                .orElseThrow();
        assertThat(run).hasToString("ArtemisAcksIT#consumeStepsSlowEveryConsumerWhileTheProducersKeepTheirRate");
        run.assertStillWritten();
    }

    @Test
    void aPlanItCoversALineWithTheSamePropertiesSizesApart() {
        PlanItRun it = new PlanItRun(
                ReadmeCommandsIT.class, "x", "echo", "host=127.0.0.1", "login=guest", "threads=3", "indexPath=none");
        assertThat(it.covers(line("-Jhost=127.0.0.1 -Jport=61614 -Jlogin=guest -Jthreads=50")))
                .isTrue();
        assertThat(it.covers(line("-Jhost=127.0.0.1 -Jlogin=guest -Jpasscode=guest")))
                .as("a property the IT does not pass")
                .isFalse();
        assertThat(it.covers(line("-Jhost=127.0.0.1 -Jlogin=other")))
                .as("another value")
                .isFalse();
        assertThat(it.covers(line("-Jhost=127.0.0.1 -Jlogin=guest -e -o dashboard")))
                .as("another option")
                .isFalse();
        PlanItRun more = new PlanItRun(ReadmeCommandsIT.class, "x", "echo", "host=127.0.0.1", "mode=fire-and-forget");
        assertThat(more.covers(line("-Jhost=127.0.0.1")))
                .as("the IT asks for more than the line")
                .isFalse();
    }

    @Test
    void aDashboardRunCoversALineThatBuildsOneWhateverItsDirectory() {
        PlanItRun dashboard = new PlanItRun(ReadmeCommandsIT.class, "x", "echo", "host=127.0.0.1").withDashboard();
        assertThat(dashboard.covers(line("-Jhost=127.0.0.1 -e -o dashboard"))).isTrue();
        assertThat(dashboard.covers(line("-Jhost=127.0.0.1 -e -o report"))).isTrue();
        assertThat(dashboard.covers(line("-Jhost=127.0.0.1")))
                .as("no dashboard asked for: the same run, the dashboard built after it")
                .isTrue();
        assertThat(dashboard.covers(line("-Jhost=127.0.0.1 -X")))
                .as("another option")
                .isFalse();
        assertThat(dashboard.covers(line("-Jhost=127.0.0.1 -e -o dashboard -X")))
                .as("another option")
                .isFalse();
        assertThat(new PlanItRun(ReadmeCommandsIT.class, "x", "echo", "host=127.0.0.1")
                        .covers(line("-Jhost=127.0.0.1 -e -o dashboard")))
                .as("the IT builds no dashboard")
                .isFalse();
    }

    /**
     * A run listed as covering the docs covers a line of theirs (else the list names a run for nothing), and its IT
     * still runs it.
     */
    @Test
    void everyPlanItRunListedCoversALineOfTheDocs() throws Exception {
        List<ReadmeCommand> docs = ReadmeCommand.all(PlanRun.projectRoot());
        for (PlanItRun it : ReadmeCommandsIT.PLAN_IT_RUNS) {
            assertThat(docs).as("the docs' lines %s covers", it).anyMatch(it::covers);
            it.assertStillWritten();
        }
    }

    private static ReadmeCommand line(String properties) {
        return ReadmeCommand.parse("target/jmeter/bin/jmeter -n -t jmx/echo.jmx -l results.jtl " + properties, "x");
    }
}
