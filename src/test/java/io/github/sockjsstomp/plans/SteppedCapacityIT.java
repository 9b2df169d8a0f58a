package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stepped runs through a real JMeter against the demo server, whose {@code /app/slow} saturates at a known rate
 * (100 messages a second: one worker, 10 ms a message). The steps log is read as analysis/ reads it; every
 * assertion is on step indexes, counts and verdicts, never on durations.
 */
class SteppedCapacityIT {

    /** The demo server's {@code /app/slow} knee: {@code SlowWorker.PER_SECOND}. */
    private static final double KNEE_PER_SECOND = 100;

    /**
     * The demo server's heart-beats (both ways): its clients that heart-beat see them missing after 1.5 s. The tests
     * that do not heart-beat ({@code heartbeatMillis=0}) never see them.
     */
    private static final long HEARTBEAT_MILLIS = 500;

    @RegisterExtension
    static final DemoServerExtension demo = DemoServerExtension.heartbeatingEveryMillis(HEARTBEAT_MILLIS);

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    @Test
    void aSteppedSendFindsTheServersKneeWithinOneStepAndCallsItTheServers() throws Exception {
        Path runDir = dir.resolve("knee");
        PlanRun run = PlanRun.run(
                runDir, "send", false, send(runDir, "destination=/app/slow", "steps=50,200", "users=6", "threads=2"));

        List<Map<String, String>> steps = stepsLog(runDir);
        assertThat(steps).extracting(r -> r.get("step")).containsExactly("1", "2");
        assertThat(steps).extracting(r -> r.get("verdict")).containsExactly("held", "broke");
        // the server's limit, unless other work filled this machine then (its figure says which, and the reason too)
        String whose = machineSaturated(steps.get(1)) ? "machine" : "server";
        assertThat(steps.get(1).get("limit")).isEqualTo(whose);
        assertThat(steps.get(1).get("reason")).contains("p99 ").doesNotContain("generator: ");
        assertThat(steps.get(1).get("reason").contains("; machine: ")).isEqualTo(whose.equals("machine"));
        assertThat(steps)
                .extracting(r -> r.get("machine_cpu"))
                .allSatisfy(cpu -> assertThat(cpu).matches("[01]\\.\\d{3}"));
        int knee = firstBroken(steps);
        // within one step: the knee is the first step offering more than the server's rate
        assertThat(Double.parseDouble(steps.get(knee - 1).get("offered"))).isGreaterThan(KNEE_PER_SECOND);
        assertThat(Double.parseDouble(steps.get(knee - 2).get("offered"))).isLessThan(KNEE_PER_SECOND);
        assertExactBooksPerStep(run, steps);
        String console = Files.readString(runDir.resolve("console.txt"));
        // send.jmx's steps begin when its users are online (stepsStart=online,+rampUp), here as soon as all 6 are
        assertThat(console)
                .contains("stomp steps: 2 steps of msg/s (50, 200), each 1.0 s ramp + 2.0 s hold, from when this "
                        + "engine's users are online (not before +0.0 s)")
                .contains("stomp steps begin: 6 of 6 users online at +")
                .contains("stomp step 1 of 2: 50 msg/s held")
                .contains("stomp step 2 of 2: 200 msg/s broke (the " + whose + "'s limit: ")
                .contains("stomp capacity: held 50 msg/s (")
                .contains("; broke at 200 msg/s: p99 ")
                .contains(
                        whose.equals("server")
                                ? "(the server's limit: the generator kept its pace)"
                                : "(the machine's limit: ")
                .contains("the machine's CPU read from /proc/stat");
        // one sample per step, failed where it broke
        assertThat(run.rows().stream().filter(r -> r.get("label").startsWith("step ")))
                .extracting(r -> r.get("label") + " " + r.get("success") + " " + r.get("responseCode"))
                .containsExactly("step 1 true held", "step 2 false broke-" + whose);
    }

    @Test
    void aGeneratorThatCannotKeepThePaceIsCalledTheGeneratorsLimit() throws Exception {
        // The scheduled sender sends at most 1,000 messages a wake-up and wakes at most once per tickMillis: with
        // 100 ms, at most 10,000 messages a second, whatever the machine. A step of 20,000 a second is beyond the
        // generator by its own arithmetic, so its lag behind schedule must grow: the generator's limit.
        Path runDir = dir.resolve("starved");
        PlanRun.run(
                runDir,
                "send",
                false,
                send(runDir, "destination=/app/echo", "steps=50,20000", "tickMillis=100", "users=2", "threads=1"));

        List<Map<String, String>> steps = stepsLog(runDir);
        assertThat(steps).extracting(r -> r.get("verdict")).containsExactly("held", "broke");
        assertThat(steps.get(1).get("limit")).isEqualTo("generator");
        assertThat(steps.get(1).get("reason")).contains("generator: send lag p99 ");
        assertThat(Double.parseDouble(steps.get(1).get("send_lag_p99_ms"))).isGreaterThan(200);
        assertThat(Files.readString(runDir.resolve("console.txt")))
                .contains("stomp capacity: held 50 msg/s (")
                .contains("broke at 20,000 msg/s: ")
                .contains("(the generator's limit: send lag p99 ");
    }

    /**
     * echo.jmx's closed loop steps the users that loop (pauseMillis=0: each user sends its next message as its reply
     * comes, so N users keep N messages queued at the slow worker, whose 10 ms each make a round trip of about N x
     * 10 ms: 1 user holds p99 300 ms, 60 break it). Over SockJS's websocket transport, with receipts asked for
     * (the demo's simple broker sends none); stopOnBreak ends it one step after the break.
     */
    @Test
    void echoStepsTheUsersThatLoopAndStopOnBreakStopsOneStepAfterTheBreak() throws Exception {
        Path runDir = dir.resolve("echo");
        List<String> properties = new ArrayList<>(common(runDir));
        // the demo's SockJS endpoint wants the cookie of its index page
        Map<String, String> sockJs = Map.of(
                "transport=raw", "transport=websocket",
                "endpoint=/stomp-ws", "endpoint=/ws",
                "indexPath=none", "indexPath=/index",
                "pullPath=none", "pullPath=/clientPull");
        properties.replaceAll(p -> sockJs.getOrDefault(p, p));
        properties.addAll(List.of(
                "destination=/app/slow",
                "subscribeTo=/user/queue/echo",
                "pauseMillis=0",
                "receipts=true",
                "replyTimeoutMillis=1500",
                "sloP99Millis=300",
                "sloLostPercent=1",
                "steps=1,60,120,240",
                "stopOnBreak=true",
                "users=240",
                "threads=2"));
        PlanRun run = PlanRun.run(runDir, "echo", false, properties);

        List<Map<String, String>> steps = stepsLog(runDir);
        // step 2 broke; step 3 confirms it; step 4 never ran
        assertThat(steps).extracting(r -> r.get("step")).containsExactly("1", "2", "3");
        assertThat(steps).extracting(r -> r.get("kind")).containsOnly("users");
        assertThat(steps).extracting(r -> r.get("verdict")).containsExactly("held", "broke", "broke");
        // the server's limit, unless other work filled this machine then (its figure says which)
        assertThat(steps.get(1).get("limit")).isEqualTo(machineSaturated(steps.get(1)) ? "machine" : "server");
        // every user connected before the steps began, and stayed: the steps changed who loops, not who is online
        assertThat(steps).extracting(r -> r.get("users")).containsOnly("240");
        assertThat(steps).extracting(r -> r.get("achieved")).containsExactly("1", "60", "120");
        assertThat(run.count("session")).isEqualTo(240);
        assertExactBooksPerStep(run, steps);
        assertThat(Files.readString(runDir.resolve("console.txt")))
                .contains("stomp steps begin: 240 of 240 users online at +")
                .contains("stomp capacity: held 1 users (")
                .contains("; broke at 60 users: p99 ");
        assertThat(run.books().noReceipts()).as(run.books().line()).isPositive();
    }

    /**
     * connect.jmx steps its online users, heart-beating every 500 ms, against a server that stops heart-beating to
     * each user's first session right after its CONNECTED (the demo's {@code demo-mute-after-millis} CONNECT header:
     * once per login, the connection left open). Each user learns it 1.5 to 2.25 s later (three of the server's
     * heart-beat periods, checked every half of that): a session lost to missed heart-beats, within the hold of the
     * step it connected in; it reconnects, and is served. So 4 users lose exactly 4 sessions so, each step's that
     * did breaks {@code sloHeartbeatMisses=0} with its count, and the run's end says the 4 by their cause.
     */
    @Test
    void aConnectTestStepsItsOnlineUsersAndCountsTheSessionsLostToMissedHeartBeats() throws Exception {
        Path runDir = dir.resolve("users");
        List<String> properties = new ArrayList<>(common(runDir));
        properties.replaceAll(p -> p.equals("heartbeatMillis=0") ? "heartbeatMillis=" + HEARTBEAT_MILLIS : p);
        // a user learns its loss up to 2.25 s after a connect anywhere in the 1 s ramp: a hold of 5 s keeps it there
        // when a loaded machine (the suite's forks) slows the connects by seconds
        properties.replaceAll(p -> p.startsWith("stepHoldSeconds=") ? "stepHoldSeconds=5" : p);
        properties.addAll(List.of(
                "steps=2,4",
                "stepsStart=+3",
                "threads=2",
                "connectHeaders=demo-mute-after-millis:0",
                "sloConnectFailedPercent=0",
                "sloConnectP99Millis=5000",
                "sloHeartbeatMisses=0",
                "aliveMillis=500",
                // the demo server runs in this JVM
                "serverFigures=pid:" + ProcessHandle.current().pid(),
                "serverFiguresMillis=200",
                "serverFiguresLog=" + runDir.resolve("server.csv")));
        PlanRun run = PlanRun.run(runDir, "connect", false, properties);

        List<Map<String, String>> steps = stepsLog(runDir);
        assertThat(steps).extracting(r -> r.get("kind")).containsOnly("users");
        assertThat(steps).extracting(r -> r.get("step")).containsExactly("1", "2");
        assertThat(steps).extracting(r -> r.get("connect_failed")).containsOnly("0");
        // a user that lost its session may still wait for its reconnect at the step's end
        for (Map<String, String> step : steps) {
            assertThat(Integer.parseInt(step.get("users")))
                    .as("step %s", step)
                    .isBetween(Integer.parseInt(step.get("offered")) - 2, Integer.parseInt(step.get("offered")));
        }
        // each step's losses are its own users' (one each, as they learn it), and a step broke exactly where it had
        // some
        long missed = 0;
        for (Map<String, String> step : steps) {
            long misses = Long.parseLong(step.get("heartbeat_misses"));
            missed += misses;
            assertThat(misses).as("step %s", step).isEqualTo(2);
            if (misses > 0) {
                // a loaded machine (the suite's own forks) makes it the machine's limit, as the verdict's rule says
                String whose = machineSaturated(step) ? "machine" : "server";
                assertThat(step.get("verdict") + " " + step.get("limit"))
                        .as("step %s", step)
                        .isEqualTo("broke " + whose);
                assertThat(step.get("reason"))
                        .startsWith(
                                misses + (misses == 1 ? " session" : " sessions") + " lost to missed heart-beats > 0");
            } else {
                assertThat(step.get("verdict")).as("step %s", step).isEqualTo("held");
            }
        }
        assertThat(missed).isEqualTo(4);
        String console = Files.readString(runDir.resolve("console.txt"));
        // every user lost its first session so, whichever hold it fell in, and no other
        assertThat(console)
                .contains("; 4 lost: 4 to missed heart-beats")
                .contains(" sessions lost to missed heart-beats");
        // the plan's users default to the largest step; each connected once, and once more after its loss, which its
        // thread said once (the session sampler looks at its users once all of its share connected)
        assertThat(run.rows().stream().filter(r -> r.get("label").equals("session")))
                .extracting(r -> r.get("responseCode"))
                .containsOnly("200", "ConnectionLost")
                .filteredOn("200"::equals)
                .hasSize(8);
        assertThat(run.rows().stream()
                        .filter(r -> r.get("responseCode").equals("ConnectionLost"))
                        .map(r -> r.get("responseMessage")))
                .hasSize(4)
                .allSatisfy(m -> assertThat(m).contains("Missed heart-beats: Read inactivity"));

        // the run's end says what each session held cost the server and the generator, from the file's readings;
        // nothing was sent, so no CPU per message
        Path file = runDir.resolve("server.csv");
        ZoneId zone = ZoneId.systemDefault();
        assertThat(ServerFiguresIT.costLines(runDir))
                .containsExactly(
                        "stomp sessions: 4 held at peak",
                        "stomp server memory per held session: " + ServerFiguresIT.expected(file, zone, "pid"),
                        "stomp generator memory per held session: " + ServerFiguresIT.expected(file, zone, "generator"))
                .allSatisfy(line -> assertThat(line).doesNotContain("no RSS").doesNotContain("no heap"));
    }

    /** The common properties of a stepped test against the demo server over a plain WebSocket. */
    private static List<String> common(Path runDir) {
        return List.of(
                "port=" + demo.port(),
                "transport=raw",
                "endpoint=/stomp-ws",
                "indexPath=none",
                "pullPath=none",
                "heartbeatMillis=0",
                "rampUp=0",
                "stepRampSeconds=1",
                "stepHoldSeconds=2",
                "stepsLog=" + runDir.resolve("steps.csv"));
    }

    private static List<String> send(Path runDir, String... more) {
        List<String> properties = new ArrayList<>(common(runDir));
        properties.addAll(List.of(
                "subscribeTo=/user/queue/echo",
                "replySamples=false",
                "replyTimeoutMillis=1500",
                "sloP99Millis=300",
                "sloLostPercent=1"));
        properties.addAll(List.of(more));
        return properties;
    }

    private static List<Map<String, String>> stepsLog(Path runDir) throws Exception {
        return stepsLog(runDir.resolve("steps.csv"), runDir.resolve("console.txt"));
    }

    /** The steps log's rows by column, its header checked; the run's console is printed for a failure's message. */
    static List<Map<String, String>> stepsLog(Path file, Path console) throws Exception {
        assertThat(file).exists();
        assertThat(Files.readAllLines(file).get(0))
                .isEqualTo("run,engine,step,kind,offered,ramp_start_epoch_ms,hold_start_epoch_ms,end_epoch_ms,users,"
                        + "sent,answered,lost,failed,achieved,p50_us,p99_us,p999_us,send_lag_p99_ms,generator_cpu,"
                        + "machine_cpu,connects,connect_failed,connect_p99_ms,heartbeat_misses,verdict,limit,reason");
        List<List<String>> records = PlanRun.parseCsv(Files.readString(file));
        List<String> header = records.get(0);
        List<Map<String, String>> rows = new ArrayList<>();
        for (List<String> record : records.subList(1, records.size())) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), record.get(i));
            }
            rows.add(row);
        }
        // kept for a failure's message: the console says each step
        System.out.println(Files.readString(console));
        return rows;
    }

    /** Whether the whole machine was saturated over a step's hold, as the verdict's rule has it (95% of its cores). */
    static boolean machineSaturated(Map<String, String> step) {
        return Double.parseDouble(step.get("machine_cpu")) >= 0.95;
    }

    private static int firstBroken(List<Map<String, String>> steps) {
        return steps.stream()
                .filter(r -> r.get("verdict").equals("broke"))
                .mapToInt(r -> Integer.parseInt(r.get("step")))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Each step's books are exact: its sent = answered + lost + failed, and they are the timing log's messages
     * sent in its hold, by outcome.
     */
    static void assertExactBooksPerStep(PlanRun run, List<Map<String, String>> steps) throws Exception {
        List<String[]> timing = run.timing();
        for (Map<String, String> step : steps) {
            long from = Long.parseLong(step.get("hold_start_epoch_ms"));
            long until = Long.parseLong(step.get("end_epoch_ms"));
            List<String[]> inHold = timing.stream()
                    .filter(r -> Long.parseLong(r[0]) >= from && Long.parseLong(r[0]) < until)
                    .toList();
            Set<String> ids = inHold.stream().map(r -> r[2]).collect(Collectors.toSet());
            assertThat(step.get("sent"))
                    .as("step %s sent messages: %s", step.get("step"), step)
                    .isNotEmpty();
            long sent = Long.parseLong(step.get("sent"));
            assertThat(sent).as("step %s", step.get("step")).isPositive().isEqualTo(ids.size());
            assertThat(Long.parseLong(step.get("answered"))
                            + Long.parseLong(step.get("lost"))
                            + Long.parseLong(step.get("failed")))
                    .isEqualTo(sent);
            for (String outcome : List.of("answered", "lost", "failed")) {
                assertThat(inHold.stream()
                                .filter(r -> r[1].equalsIgnoreCase(outcome))
                                .count())
                        .as("step %s %s", step.get("step"), outcome)
                        .isEqualTo(Long.parseLong(step.get(outcome)));
            }
        }
    }
}
