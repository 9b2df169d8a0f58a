package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import io.github.sockjsstomp.warmup.WarmUp;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plans in jmx/ run by a real JMeter 5.6.3 (target/jmeter, laid out by scripts/jmeter-home.sh in
 * pre-integration-test) as a subprocess, headless, against the demo server on a random loopback port, with
 * tiny settings. Each run must exit 0 with zero errors in its -l results file, the sample counts the plan's
 * structure gives, and a timing log whose books balance. Counts and contents only, never elapsed times.
 */
class JMeterPlansIT {

    private static final List<String> PLANS = List.of("connect", "send", "greetings", "chat", "push", "echo");

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    private static Path jmeterHome;
    private static Path projectRoot;

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        jmeterHome = PlanRun.jmeterHome();
        projectRoot = PlanRun.projectRoot();
    }

    // ------------------------------------------------------------------ the plan files themselves

    @Test
    void everyPlanTargetsTheLocalDemoServerByDefaultAndHasNoListeners() throws IOException {
        for (String plan : PLANS) {
            String xml = Files.readString(planFile(plan), StandardCharsets.UTF_8);
            assertThat(xml)
                    .as(plan)
                    .contains("jmeter=\"5.6.3\"")
                    .contains("<stringProp name=\"Argument.value\">${__P(host,127.0.0.1)}</stringProp>")
                    .contains("<stringProp name=\"Argument.value\">${__P(port,8080)}</stringProp>")
                    .doesNotContain("ResultCollector")
                    .doesNotContain("<stringProp name=\"TestPlan.comments\"></stringProp>")
                    .contains("<stringProp name=\"TestPlan.comments\">");
            // Every JavaSampler carries one of our three samplers.
            Matcher classnames = Pattern.compile("<stringProp name=\"classname\">([^<]*)</stringProp>")
                    .matcher(xml);
            List<String> found = new ArrayList<>();
            while (classnames.find()) {
                found.add(classnames.group(1));
            }
            assertThat(found).as(plan).isNotEmpty().allMatch(c -> c.startsWith("io.github.sockjsstomp.sampler.Stomp"));
        }
    }

    /** Open + Save in JMeter's GUI changes nothing (see {@link PlanRoundTrip}). */
    @Test
    void plansLoadAndSaveCleanlyThroughTheGuiComponents() throws Exception {
        Path testClasses = Path.of(PlanRoundTrip.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        String classpath = String.join(
                File.pathSeparator,
                jmeterHome.resolve("lib") + "/*",
                jmeterHome.resolve("lib/ext") + "/*",
                testClasses.toString());
        List<String> command = new ArrayList<>(List.of(
                javaExecutable(),
                "-Djava.awt.headless=true",
                "-Djmeter.home=" + jmeterHome,
                "-cp",
                classpath,
                PlanRoundTrip.class.getName(),
                jmeterHome.toString(),
                dir.resolve("round-trip").toString()));
        PLANS.forEach(plan -> command.add(planFile(plan).toString()));
        Path output = dir.resolve("round-trip.out");
        int exit = run(command, output, Map.of());
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(printed)
                .as(printed)
                .contains(PLANS.stream().map(p -> "SAME " + planFile(p)).toList());
        assertThat(exit).as(printed).isZero();
    }

    // ------------------------------------------------------------------ runs

    /**
     * The rows a session sampler writes per session, one connect each: its sample, then a sub-result per step
     * (the login steps over SockJS unless skipped, the STOMP connect, the subscribe when there is one).
     */
    private static Map<String, Long> sessionRows(long sessions, boolean loginSteps, boolean subscribes) {
        Map<String, Long> rows = new LinkedHashMap<>();
        rows.put("session", sessions);
        if (loginSteps) {
            rows.put("index", sessions);
            rows.put("clientPull", sessions);
        }
        rows.put("connect", sessions);
        if (subscribes) {
            rows.put("subscribe", sessions);
        }
        return rows;
    }

    private static Map<String, Long> with(Map<String, Long> rows, String label, long count) {
        rows.put(label, count);
        return rows;
    }

    @Test
    void echoAwaitsEveryReplyAndBuildsTheDashboard() throws Exception {
        PlanRun run = jmeter(
                "echo",
                true,
                "threads=3",
                "rampUp=0",
                "duration=8",
                "pauseMillis=200",
                "replyTimeoutMillis=2000",
                "summariser.interval=3");
        long echoes = run.count("echo");
        assertThat(run.labels()).containsExactlyInAnyOrderEntriesOf(with(sessionRows(3, true, true), "echo", echoes));
        assertThat(echoes).isGreaterThanOrEqualTo(3);
        assertThat(run.threads("echo")).hasSize(3);

        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(timing).hasSize((int) echoes); // books: sent = answered
        assertThat(distinct(timing, 2)).hasSize((int) echoes);
        assertThat(timing).allSatisfy(r -> {
            assertThat(r[4]).matches(".+-[123]").isEqualTo(r[5]); // echo: sender = receiver
            assertThat(r[6]).isEqualTo("/app/echo");
            assertThat(r[9]).isEqualTo("await-reply");
            assertThat(r[12]).isEqualTo("local");
            assertThat(r[13]).as("the plugin jar's version").matches("\\d+\\.\\d+\\.\\d+.*");
        });
        assertThat(distinct(timing, 4)).hasSize(3);

        assertThat(run.dir().resolve("report/index.html")).isNotEmptyFile();
        // The live reply summary on the console, next to JMeter's own; its last line has the final books.
        List<String> totals = Files.readAllLines(run.dir().resolve("console.txt")).stream()
                .filter(line -> line.startsWith("stomp replies ="))
                .toList();
        assertThat(totals).hasSizeGreaterThanOrEqualTo(2);
        assertThat(totals.get(totals.size() - 1))
                .contains(" " + echoes + " sent")
                .contains("answered " + echoes + ", lost 0, failed 0, pending 0; reply ms p50");
        assertBooksPercentilesAreTheLogs(run.books(), timing);
        assertNoSessionCookieWritten(run);
    }

    /** The login's session cookies are secrets: nothing the run wrote holds one. */
    private static void assertNoSessionCookieWritten(PlanRun run) throws IOException {
        Set<String> cookies = demo.server().sessionCookieValues();
        assertThat(cookies).isNotEmpty();
        for (Path written : List.of(
                run.timingLog(),
                run.dir().resolve("echo.jtl"),
                run.dir().resolve("jmeter.log"),
                run.dir().resolve("sockjs-stomp.log"),
                run.dir().resolve("console.txt"))) {
            if (Files.exists(written)) {
                String text = Files.readString(written);
                assertThat(cookies).as(written.toString()).noneMatch(text::contains);
            }
        }
    }

    /**
     * The books line's percentiles are those of the timing log's latencies by analysis/'s definition ("higher":
     * the sample of index ceil(q * (N - 1)) sorted ascending), within HdrHistogram's precision.
     */
    private static void assertBooksPercentilesAreTheLogs(PlanRun.BooksLine line, List<String[]> timing) {
        Matcher books = Pattern.compile("latency us: p50=(\\d+) p90=(\\d+) p99=(\\d+) p99\\.9=(\\d+) max=(\\d+) "
                        + "\\((\\d+) answers\\)")
                .matcher(line.line());
        assertThat(books.find()).as("latencies in " + line.line()).isTrue();
        long[] latencies = timing.stream()
                .filter(r -> r[1].equals("ANSWERED"))
                .mapToLong(r -> Long.parseLong(r[3]))
                .sorted()
                .toArray();
        assertThat(Long.parseLong(books.group(6))).isEqualTo(latencies.length);
        Histogram precision = new Histogram(3);
        double[] quantiles = {0.5, 0.9, 0.99, 0.999, 1.0};
        for (int i = 0; i < quantiles.length; i++) {
            long exact = latencies[(int) Math.ceil(quantiles[i] * (latencies.length - 1))];
            assertThat(Long.parseLong(books.group(i + 1)))
                    .as("q=%s of %s", quantiles[i], Arrays.toString(latencies))
                    .isBetween(exact, precision.highestEquivalentValue(exact));
        }
    }

    @ParameterizedTest(name = "pacing {0}")
    @ValueSource(strings = {"ctt", "fixed", "unthrottled"})
    void sendIsPacedAndEverySendIsAnswered(String pacing) throws Exception {
        int threads = SEND_THREADS;
        int duration = SEND_DURATION;
        PlanRun run = switch (pacing) {
            case "ctt" -> threeUsersAtAConstantThroughput();
            case "unthrottled" -> unthrottledWithoutLoginSteps();
            default -> paced(pacing);
        };
        long sends = run.count("send");
        // the unthrottled run skips the login steps (the none test): the other two have them
        boolean loginSteps = !pacing.equals("unthrottled");
        assertThat(run.labels())
                .containsExactlyInAnyOrderEntriesOf(with(sessionRows(threads, loginSteps, true), "send", sends));
        Map<String, Long> perThread = run.threads("send");
        // Every thread sends: a Constant Throughput Timer at 0 would stall threads until the end.
        assertThat(perThread).hasSize(threads);
        switch (pacing) {
            // 10 per second shared by all threads, at most duration s of sending (+1 unpaced first send)
            case "ctt" -> assertThat(sends).isBetween(2L, duration * 10L + threads);
            // one send per 500 ms per thread at most
            case "fixed" -> assertThat(sends).isBetween((long) threads, threads * (duration * 2L + 1));
            // unthrottled (messagesPerSecond=0 is mapped to no delay): every thread keeps sending
            default ->
                assertThat(perThread.values()).allSatisfy(n -> assertThat(n).isGreaterThan(1L));
        }

        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(timing).hasSize((int) sends);
        assertThat(distinct(timing, 2)).hasSize((int) sends);
        assertThat(timing).allSatisfy(r -> assertThat(r[4]).isEqualTo(r[5]));
        assertThat(distinct(timing, 9)).containsExactly("fire-and-forget");
    }

    private static final int SEND_THREADS = 3;
    private static final int SEND_DURATION = 8;

    private static PlanRun paced(String pacing, String... more) throws Exception {
        List<String> props = new ArrayList<>(
                List.of("threads=" + SEND_THREADS, "rampUp=0", "duration=" + SEND_DURATION, "replyTimeoutMillis=3000"));
        switch (pacing) {
            case "ctt" -> props.addAll(List.of("pacing=ctt", "messagesPerSecond=10"));
            case "fixed" -> props.addAll(List.of("pacing=fixed", "pauseMillis=500"));
            default -> props.addAll(List.of("pacing=ctt", "messagesPerSecond=0"));
        }
        props.addAll(Arrays.asList(more));
        return jmeter("send-" + pacing, false, props.toArray(String[]::new));
    }

    /**
     * send.jmx unthrottled over a plain WebSocket with the login steps skipped on the command line: the unthrottled
     * pacing test and the none test assert on this one run, each on what it is about (pacing does not depend on
     * the transport or the login steps; the other two pacings run with them).
     */
    private static PlanRun unthrottledWithoutLoginSteps;

    private static synchronized PlanRun unthrottledWithoutLoginSteps() throws Exception {
        if (unthrottledWithoutLoginSteps == null) {
            unthrottledWithoutLoginSteps =
                    paced("unthrottled", "transport=raw", "endpoint=/stomp-ws", "indexPath=none", "pullPath=none");
        }
        return unthrottledWithoutLoginSteps;
    }

    /**
     * send.jmx with -Jthreads=3 alone and a Constant Throughput Timer: the constant throughput test and the
     * threads-alone test assert on this one run, each on what it is about.
     */
    private static PlanRun threeUsersAtAConstantThroughput;

    private static synchronized PlanRun threeUsersAtAConstantThroughput() throws Exception {
        if (threeUsersAtAConstantThroughput == null) {
            threeUsersAtAConstantThroughput = paced("ctt");
        }
        return threeUsersAtAConstantThroughput;
    }

    /**
     * send.jmx's defaults with five users (no threads) at 20 messages a second, with the HTML dashboard: the
     * reply samples test and the five users test assert on this one run, each on what it is about.
     */
    private static PlanRun fiveUsersWithReplySamples;

    private static synchronized PlanRun fiveUsersWithReplySamples() throws Exception {
        if (fiveUsersWithReplySamples == null) {
            fiveUsersWithReplySamples = jmeter(
                    "send-replies",
                    true,
                    "users=5",
                    "rampUp=0",
                    // long enough for the JIT warm-up and the connects on a busy machine, then some sending
                    "duration=12",
                    "messagesPerSecond=20",
                    "replyTimeoutMillis=3000",
                    "replySamples=true");
        }
        return fiveUsersWithReplySamples;
    }

    /**
     * Reply samples (send.jmx's default): every finished message of a fire-and-forget run reaches JMeter's listeners as a
     * sample of its own, its elapsed time the reply latency, and the HTML dashboard lists them.
     */
    @Test
    void replySamplesBringFireAndForgetLatencyToJMetersListeners() throws Exception {
        int users = 5;
        PlanRun run = fiveUsersWithReplySamples();
        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(run.count("send")).as("send rows kept out of the listeners").isZero();
        long sends = timing.size();
        List<Map<String, String>> replies = run.rows().stream()
                .filter(r -> r.get("label").equals("reply /app/echo"))
                .toList();
        // The replies thread stops with the senders: the last replies may finish after it, in the drain.
        assertThat(replies).hasSizeBetween((int) sends - 2 * users, (int) sends);
        assertThat(replies).allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("true");
            assertThat(r.get("threadName")).startsWith("replies ");
        });
        // Each reply sample's elapsed time is one message's latency in the timing log, rounded to the millisecond.
        List<Long> logged = new ArrayList<>(timing.stream()
                .map(r -> Math.round(Long.parseLong(r[3]) / 1000.0))
                .toList());
        for (Map<String, String> reply : replies) {
            assertThat(logged.remove(Long.valueOf(reply.get("elapsed"))))
                    .as("elapsed " + reply.get("elapsed") + " is a logged latency")
                    .isTrue();
        }
        assertThat(Files.readString(run.dir().resolve("report/statistics.json")))
                .contains("\"reply /app/echo\"");
    }

    /**
     * send.jmx's defaults: users without threads are placed on min(users, max(2, ceil(users / 1000))) threads,
     * 3 and 2 for 5 users, said on the console; every message is one reply row (the send rows are kept out of
     * the listeners), so JMeter's own views count messages.
     */
    @Test
    void fiveUsersRunOnTwoThreadsThreeAndTwoAndEveryMessageIsOneReplyRow() throws Exception {
        PlanRun run = fiveUsersWithReplySamples();
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("stomp: senders: 5 virtual users on 2 threads (2 to 3 per thread)");
        assertThat(run.threads("session")).containsOnlyKeys("senders 1-1", "senders 1-2");
        assertThat(run.threads("session").values()).containsExactlyInAnyOrder(3L, 2L);
        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(distinct(timing, 4)).containsExactlyInAnyOrder("user-1", "user-2", "user-3", "user-4", "user-5");
        assertThat(run.count("send")).as("send rows kept out of the listeners").isZero();
        List<Map<String, String>> replies = run.rows().stream()
                .filter(r -> r.get("label").equals("reply /app/echo"))
                .toList();
        // The replies thread stops with the senders: the last replies may finish after it, in the drain.
        assertThat(replies)
                .hasSizeBetween(timing.size() - 2 * 5, timing.size())
                .allSatisfy(r -> assertThat(r.get("success")).isEqualTo("true"));
        assertThat(replies).allSatisfy(r -> assertThat(r.get("SampleCount")).isEqualTo("1"));
    }

    /**
     * Spring's simple broker takes the ACK frames and does nothing with them: with ack=client-individual, only the
     * frames sent change. No error, every message answered, each ACKed once.
     */
    @Test
    void clientIndividualAcksChangeNothingButTheFramesAgainstSpringsSimpleBroker() throws Exception {
        PlanRun run = jmeter(
                "send-acks",
                false,
                "users=2",
                "threads=2",
                "rampUp=0",
                "duration=4",
                "messagesPerSecond=20",
                "replyTimeoutMillis=3000",
                "ack=client-individual");
        PlanRun.BooksLine books = run.books();
        assertThat(books.sent()).as(books.line()).isPositive();
        assertThat(books.allAnswered(books.sent())).as(books.line()).isTrue();
        assertThat(books.line()).doesNotContain("redeliveries");
        AckLine acks = AckLine.of(run);
        assertThat(acks)
                .isEqualTo(new AckLine(
                        books.sent(),
                        books.sent(),
                        books.sent(),
                        0,
                        0,
                        acks.maxUnacked(),
                        acks.maxAtOneSubscription(),
                        0));
        assertThat(run.rows())
                .allSatisfy(r -> assertThat(r.get("success"))
                        .as("%s %s", r.get("label"), r.get("responseMessage"))
                        .isEqualTo("true"));
        assertThat(Files.readString(run.dir().resolve("jmeter.log"))).doesNotContain("ERROR frame");
    }

    /** A JMeter user's habit: -Jthreads=N alone is N users, one per thread. */
    @Test
    void threadsAloneIsThatManyUsersOnePerThread() throws Exception {
        PlanRun run = threeUsersAtAConstantThroughput();
        assertThat(Files.readString(run.dir().resolve("console.txt")))
                .contains("stomp: senders: 3 virtual users on 3 threads (1 per thread)");
        assertThat(run.threads("session"))
                .hasSize(3)
                .allSatisfy((thread, sessions) -> assertThat(sessions).isEqualTo(1L));
        assertThat(distinct(run.timing(), 4)).containsExactlyInAnyOrder("user-1", "user-2", "user-3");
    }

    private static final int GREETING_USERS = 3;

    /**
     * greetings.jmx with three users, each its line of a users file, after the warm-up: the greetings test and the
     * users file test assert on this one run, each on what it is about.
     */
    private static PlanRun greetingsWithAUsersFileAfterTheWarmUp;

    private static synchronized PlanRun greetingsWithAUsersFileAfterTheWarmUp() throws Exception {
        if (greetingsWithAUsersFileAfterTheWarmUp == null) {
            Path users = Files.writeString(dir.resolve("users.csv"), "login,passcode\nalice,a\nbob,b\ncarol,c\n");
            greetingsWithAUsersFileAfterTheWarmUp = jmeter(
                    "greetings-warm-up",
                    false,
                    "threads=" + GREETING_USERS,
                    "rampUp=0",
                    "messages=3",
                    "pauseMillis=200",
                    "holdMillis=500",
                    "replyTimeoutMillis=2000",
                    "sockjsstomp.warmUp=true",
                    "usersFile=" + users);
        }
        return greetingsWithAUsersFileAfterTheWarmUp;
    }

    /**
     * Exact counts with the generator's warm-up on: its warm-up messages go to a peer inside the JVM, never to the
     * server, and reach neither the books, the timing log nor the results. (Without it, as every other run here
     * goes, the chat test asserts no warm-up ran.)
     */
    @Test
    void greetingsAreBroadcastToEverySubscriberAfterTheWarmUp() throws Exception {
        int threads = GREETING_USERS;
        int messages = 3;
        PlanRun run = greetingsWithAUsersFileAfterTheWarmUp();
        // the lines the no-warm-up checks look for: a warm-up is seen by them in this log's layout
        assertThat(warmUpLines(run)).hasSizeGreaterThanOrEqualTo(2);
        // transport auto: both kinds it may choose are warmed
        assertThat(Files.readString(run.dir().resolve("jmeter.log")))
                .containsPattern("Warm-up over websocket: \\d+ messages sent, \\d+ answered, in \\d+ ms "
                        + "\\(\\d+ ms of CPU\\) against an in-process peer, nothing sent to the server under test\n")
                .containsPattern("Warm-up over raw: \\d+ messages sent");
        assertThat(run.books().sent()).isEqualTo(threads * messages);
        assertThat(run.labels())
                .containsExactlyInAnyOrderEntriesOf(
                        with(sessionRows(threads, true, true), "hello", (long) threads * messages));
        assertThat(run.threads("hello").values()).containsOnly((long) messages);

        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(distinct(timing, 2)).hasSize(threads * messages);
        // Each greeting reaches at least its own sender, at most every user once.
        Map<String, List<String[]>> byMessage = timing.stream().collect(Collectors.groupingBy(r -> r[2]));
        assertThat(byMessage.values()).allSatisfy(copies -> {
            assertThat(copies).anySatisfy(r -> assertThat(r[5]).isEqualTo(r[4]));
            assertThat(copies.stream().map(r -> r[5]).distinct().count())
                    .isEqualTo(copies.size())
                    .isLessThanOrEqualTo(threads);
            assertThat(copies).allSatisfy(r -> assertThat(r[6]).isEqualTo("/app/hello"));
        });
    }

    @Test
    void chatMessagesAreCountedAndTimedAtTheReceivers() throws Exception {
        int senders = 2;
        int receivers = 3;
        int messages = 4;
        // Receivers subscribe inside their first sample, with nothing to wait on: senderDelay is a time margin,
        // and a cold JVM on a busy machine (the suite's forks) needs several times the default 2 s to be safe.
        PlanRun run = jmeter(
                "chat",
                false,
                "senders=" + senders,
                "receivers=" + receivers,
                "messages=" + messages,
                "pauseMillis=200",
                "senderDelay=6",
                "replyTimeoutMillis=3000");
        // round robin over all senders*messages = 8 messages: receivers 1,2,3,1,2,3,1,2
        // The receivers connect inside their first sample (no rows of their own); the senders have a session
        // sampler, and subscribe to nothing.
        Map<String, Long> expected = with(sessionRows(senders, true, false), "chat send", 8L);
        expected.put("chat receive", 8L);
        assertThat(run.labels()).containsExactlyInAnyOrderEntriesOf(expected);
        assertThat(run.threads("chat send")).containsOnly(Map.entry("senders 2-1", 4L), Map.entry("senders 2-2", 4L));
        assertThat(run.threads("chat receive"))
                .containsOnly(
                        Map.entry("receivers 1-1", 3L), Map.entry("receivers 1-2", 3L), Map.entry("receivers 1-3", 2L));

        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(timing).hasSize(8);
        assertThat(distinct(timing, 2)).hasSize(8);
        Map<String, Long> routes = timing.stream()
                .collect(Collectors.groupingBy(r -> r[4] + ">" + r[5], TreeMap::new, Collectors.counting()));
        assertThat(routes)
                .containsExactly(
                        Map.entry("sender-1>receiver-1", 2L),
                        Map.entry("sender-1>receiver-2", 1L),
                        Map.entry("sender-1>receiver-3", 1L),
                        Map.entry("sender-2>receiver-1", 1L),
                        Map.entry("sender-2>receiver-2", 2L),
                        Map.entry("sender-2>receiver-3", 1L));
        assertThat(timing).allSatisfy(r -> assertThat(r[6]).isEqualTo("/app/chat"));
        // the exact counts above without the warm-up (the tests' runs skip it; the greetings test asks for it)
        assertThat(warmUpLines(run)).isEmpty();
    }

    @Test
    void pushDeliversEveryRequestedMessage() throws Exception {
        PlanRun run = jmeter("push", false, "threads=2", "rampUp=0", "duration=8", "pushCount=5", "pushBytes=2000");
        assertThat(run.labels()).containsOnlyKeys("push");
        assertThat(run.count("push")).isGreaterThanOrEqualTo(2);
        assertThat(run.threads("push")).hasSize(2);
        // 5 messages of 2000 bytes each per sample
        assertThat(run.rows()).allSatisfy(r -> assertThat(r.get("bytes")).isEqualTo("10000"));
        assertThat(run.timingLog()).doesNotExist(); // nothing timed: receivers only
    }

    /**
     * connect.jmx with ten users on two threads, the reconnect delays of docs/failures.md's line (nothing drops
     * here: they only must be accepted): the connect test and the several sessions test assert on this one run
     * (a JMeter launch is seconds of CPU), each on what it is about; ReadmeCommandsIT.PLAN_IT_RUNS counts it as
     * that docs line's run.
     */
    private static PlanRun tenUsersOnTwoThreads;

    private static synchronized PlanRun tenUsersOnTwoThreads() throws Exception {
        if (tenUsersOnTwoThreads == null) {
            tenUsersOnTwoThreads = jmeter(
                    "connect-many",
                    false,
                    "users=10",
                    "threads=2",
                    "rampUp=0",
                    "duration=8",
                    "aliveMillis=1000",
                    "sockjsstomp.reconnectMinMillis=2000",
                    "sockjsstomp.reconnectMaxMillis=60000",
                    // on, as a user's run has it: the connect test's session sampler skips it all the same
                    "sockjsstomp.warmUp=true");
        }
        return tenUsersOnTwoThreads;
    }

    @Test
    void connectOpensOneSessionPerUserAndKeepsItAlive() throws Exception {
        int users = 10;
        PlanRun run = tenUsersOnTwoThreads();
        // the connect sample and its steps (sub-results are rows of their own)
        assertThat(run.count("session")).isEqualTo(users);
        assertThat(run.count("index")).isEqualTo(users);
        assertThat(run.count("clientPull")).isEqualTo(users);
        assertThat(run.count("connect")).isEqualTo(users);
        assertThat(run.labels()).containsOnlyKeys("session", "index", "clientPull", "connect", "session alive");
        assertThat(run.rows()).allSatisfy(r -> assertThat(r.get("success")).isEqualTo("true"));
        assertThat(run.timingLog()).doesNotExist();
    }

    /** A plan that sends no messages does not pay the message warm-up (its session sampler's warmUp=false). */
    @Test
    void connectSkipsTheMessageWarmUpThatSendingPlansRun() throws Exception {
        PlanRun run = tenUsersOnTwoThreads();
        assertThat(warmUpLines(run)).isEmpty();
        assertThat(run.count("session")).isEqualTo(10);
    }

    // ------------------------------------------------------------------ servers other than the demo's own setup

    /** JMeter drops -JindexPath= (an empty value), so the plan's /index would come back: none gets through. */
    @Test
    void noneSkipsTheLoginStepsOnTheCommandLine() throws Exception {
        PlanRun run = unthrottledWithoutLoginSteps();
        assertThat(run.labels())
                .containsExactlyInAnyOrderEntriesOf(
                        with(sessionRows(SEND_THREADS, false, true), "send", run.count("send")));
        assertOnlyAnswered(run.timing());
        assertThat(Files.readString(run.dir().resolve("jmeter.log"))).doesNotContain("/index");
    }

    /**
     * echo.jmx against the demo's strict broker, on Tomcat's own I/O threads instead of the plugin's: the strict
     * broker test and the Tomcat I/O threads test assert on this one run, each on what it is about.
     */
    private static PlanRun strictBrokerOnTomcatsIoThreads;

    private static synchronized PlanRun strictBrokerOnTomcatsIoThreads() throws Exception {
        if (strictBrokerOnTomcatsIoThreads == null) {
            strictBrokerOnTomcatsIoThreads = jmeter(
                    "echo-guest",
                    false,
                    "threads=3",
                    "rampUp=0",
                    "duration=8",
                    "pauseMillis=200",
                    "transport=raw",
                    "endpoint=/stomp-strict",
                    "indexPath=none",
                    "pullPath=none",
                    "login=guest",
                    "passcode=s3cret-pass",
                    "connectHeaders=Authorization:Bearer s3cret-token",
                    "sendHeaders=Authorization:Bearer s3cret-token",
                    "destination=/queue/echo.{{userNumber}}",
                    "subscribeTo=/queue/echo.{{userNumber}}",
                    "replyTimeoutMillis=3000",
                    "sockjsstomp.ioThreads=0");
        }
        return strictBrokerOnTomcatsIoThreads;
    }

    @Test
    void oneLoginForEveryUserAndAQueuePerUserOnAStrictBroker() throws Exception {
        PlanRun run = strictBrokerOnTomcatsIoThreads();
        List<String[]> timing = run.timing();
        assertOnlyAnswered(timing);
        assertThat(distinct(timing, 4)).containsExactly("guest");
        assertThat(distinct(timing, 6)).containsExactlyInAnyOrder("/queue/echo.1", "/queue/echo.2", "/queue/echo.3");
        // Secrets stay out of everything the plugin writes. JMeter itself logs each -J property it sets.
        for (Path written : List.of(
                run.timingLog(), run.dir().resolve("echo.jtl"), run.dir().resolve("sockjs-stomp.log"))) {
            if (Files.exists(written)) {
                assertThat(Files.readString(written)).as(written.toString()).doesNotContain("s3cret");
            }
        }
        assertThat(Files.readAllLines(run.dir().resolve("jmeter.log")).stream()
                        .filter(line -> !line.contains("Setting JMeter property")))
                .noneMatch(line -> line.contains("s3cret"));
    }

    @Test
    void aBrokersErrorOnConnectFailsEachConnectAtOnceWithItsWords() throws Exception {
        PlanRun run = jmeterWithFailures(
                "connect-refused",
                false,
                "threads=2",
                "rampUp=0",
                "duration=4",
                "transport=raw",
                "endpoint=/stomp-strict",
                "indexPath=none",
                "pullPath=none",
                "passcode=reject-open",
                "connectTimeoutMillis=120000");
        List<Map<String, String>> sessions = run.rows().stream()
                .filter(r -> r.get("label").equals("session"))
                .toList();
        assertThat(sessions).hasSizeGreaterThanOrEqualTo(2).allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("false");
            assertThat(r.get("responseCode")).isEqualTo("StompError");
            assertThat(r.get("responseMessage")).matches("Bad CONNECT: Access refused for user 'user-[12]'");
        });
    }

    @Test
    void threadsHoldSeveralSessionsEach() throws Exception {
        PlanRun run = tenUsersOnTwoThreads();
        assertThat(run.count("session")).isEqualTo(10);
        assertThat(run.threads("session")).containsOnly(Map.entry("users 1-1", 5L), Map.entry("users 1-2", 5L));
        assertThat(run.threads("session alive")).hasSize(2);
        assertThat(run.rows().stream().filter(r -> r.get("label").equals("session alive")))
                .allSatisfy(r -> assertThat(r.get("responseMessage")).startsWith("5 sessions alive"));
    }

    @Test
    void usersFileGivesEveryUserItsLine() throws Exception {
        PlanRun run = greetingsWithAUsersFileAfterTheWarmUp();
        assertThat(run.rows().stream()
                        .filter(r -> r.get("label").equals("session"))
                        .map(r -> r.get("responseMessage")
                                .replaceAll("Connected VirtualUser\\[[^(]*\\(([a-z]+)\\),.*", "$1")))
                .containsExactlyInAnyOrder("alice", "bob", "carol");
        assertThat(distinct(run.timing(), 4)).containsExactlyInAnyOrder("alice", "bob", "carol");
    }

    @Test
    void badJvmWideSettingsFailEverySessionNamingThePropertyAndValue() throws Exception {
        PlanRun run = jmeterWithFailures(
                "connect-badsettings",
                false,
                "threads=1",
                "rampUp=0",
                "duration=3",
                "sockjsstomp.ioThreads=-1",
                "sockjsstomp.connectThreads=0",
                "sockjsstomp.warmUp=yes");
        List<Map<String, String>> sessions = run.rows().stream()
                .filter(r -> r.get("label").startsWith("session"))
                .toList();
        assertThat(sessions).isNotEmpty().allSatisfy(r -> {
            assertThat(r.get("responseCode")).isEqualTo("ConfigError");
            assertThat(r.get("responseMessage"))
                    .contains(
                            "JMeter property 'sockjsstomp.ioThreads' has value '-1': expected a whole number, 0 or more")
                    .contains(
                            "JMeter property 'sockjsstomp.connectThreads' has value '0': expected a positive whole number")
                    .contains("JMeter property 'sockjsstomp.warmUp' has value 'yes': expected true or false");
        });
        assertThat(warmUpLines(run)).as("no warm-up for a test that cannot run").isEmpty();
    }

    @Test
    void tomcatsOwnIoThreadsStillWorkWhenAskedFor() throws Exception {
        PlanRun run = strictBrokerOnTomcatsIoThreads();
        assertThat(run.count("echo")).isPositive();
        assertOnlyAnswered(run.timing());
    }

    // ------------------------------------------------------------------ helpers

    private static void assertOnlyAnswered(List<String[]> timing) {
        assertThat(timing)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"));
    }

    /**
     * The lines of the run's jmeter.log written by the warm-up's own loggers (its package's, whatever the class):
     * whether a warm-up ran, by who wrote a line, not by its words, so rewording a message cannot make a warm-up
     * unseen. JMeter's layout ({@code %d %p %c{1.}: %m}) writes the logger's packages by their first letters
     * ({@code i.g.s.w.WarmUp}); a layout with whole names is matched too. The greetings test, whose run warms up,
     * shows these lines are found in the layout the runs have.
     */
    private static List<String> warmUpLines(PlanRun run) throws IOException {
        String warmUpPackage = WarmUp.class.getPackageName();
        String abbreviated = Arrays.stream(warmUpPackage.split("\\."))
                .map(part -> part.substring(0, 1))
                .collect(Collectors.joining("."));
        Pattern logger = Pattern.compile("^\\S+ \\S+ [A-Z]+ (?:" + Pattern.quote(warmUpPackage) + "|"
                + Pattern.quote(abbreviated) + ")\\.[\\w$.]+: ");
        return Files.readAllLines(run.dir().resolve("jmeter.log"), StandardCharsets.UTF_8).stream()
                .filter(line -> logger.matcher(line).find())
                .toList();
    }

    private static Set<String> distinct(List<String[]> records, int column) {
        return records.stream().map(r -> r[column]).collect(Collectors.toSet());
    }

    private static Path planFile(String plan) {
        return PlanRun.planFile(plan);
    }

    /** One headless JMeter run of jmx/{plan}.jmx against the demo server; every sample must succeed. */
    private static PlanRun jmeter(String name, boolean report, String... properties) throws Exception {
        return PlanRun.runClean(dir.resolve(name), plan(name), report, withPort(properties));
    }

    /** One headless JMeter run of jmx/{plan}.jmx against the demo server that writes samples, failed or not. */
    private static PlanRun jmeterWithFailures(String name, boolean report, String... properties) throws Exception {
        return PlanRun.run(dir.resolve(name), plan(name), report, withPort(properties));
    }

    private static String plan(String name) {
        return name.contains("-") ? name.substring(0, name.indexOf('-')) : name;
    }

    private static List<String> withPort(String... properties) {
        // The demo server's SockJS endpoint wants the cookie its login steps set; greetings.jmx's own endpoint is
        // the Spring guide's.
        List<String> all = new ArrayList<>(List.of("port=" + demo.port()));
        // replySamples=false: these runs count send.jmx's send rows (its default is one reply row per message instead)
        for (String demo : List.of("indexPath=/index", "pullPath=/clientPull", "endpoint=/ws", "replySamples=false")) {
            String name = demo.substring(0, demo.indexOf('=') + 1);
            if (Arrays.stream(properties).noneMatch(p -> p.startsWith(name))) {
                all.add(demo);
            }
        }
        all.addAll(Arrays.asList(properties));
        return all;
    }

    private static int run(List<String> command, Path output, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(projectRoot.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().putAll(env);
        return PlanRun.waitFor(builder.start(), command, output);
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
