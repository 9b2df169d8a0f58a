package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.apps.GreetingApp;
import io.github.sockjsstomp.apps.SecuredChatApp;
import io.github.sockjsstomp.apps.SecuredChatApp.StompAuth;
import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.broker.RabbitBroker;
import io.github.sockjsstomp.demo.DemoServer;
import io.github.sockjsstomp.properties.PlanDefaults;
import io.github.sockjsstomp.properties.PlanPropertyNames;
import io.github.sockjsstomp.properties.PlanVocabulary;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every headless JMeter command line of README.md, docs/*.md and jmx/README.md, as a user copies it. Each
 * property a line passes must be one its plan reads. A line for a server this machine does not have (another
 * host, remote engines) stops there; a line a plan IT already runs ({@link #PLAN_IT_RUNS}) is not run
 * twice, nor the greeting app's stepped line, which {@link GreetingAppCapacityIT} runs for its verdict; every other
 * line runs through bash against the server it names (the demo server with its login steps, Spring's greeting app
 * as published, its 1 s pause per greeting, the Spring Security app, ActiveMQ Artemis, a RabbitMQ node of the test's
 * own with its queues deleted before each line, as a user's first run finds a broker), only its ports and its length
 * changed, and must balance its books: every message sent answered (jmeter.log's books line: sent = answered, lost =
 * 0, failed = 0), a sample per message, a session per user.
 */
class ReadmeCommandsIT {

    /**
     * How long and how big a line runs here: appended where its plan reads them (later -J win). 5 s, without the
     * JIT warm-up (up to 2 s before the first connect): at 3 s with it, a busy machine ended runs before their
     * first message. Two users on two threads: {@code users} is the number of virtual users now (a line's
     * {@code -Jusers=2000} would connect 2,000 sessions, which 5 s on a busy machine does not), so it shrinks
     * with {@code threads} as {@code threads} alone shrank a line before.
     */
    private static final List<String> SHORT = List.of(
            "duration=5", "users=2", "threads=2", "rampUp=0", "messages=2", "holdMillis=1500", "pauseMillis=300");

    /** Properties that size or pace a run; a plan IT runs shorter, so they may differ from the docs' line. */
    private static final Set<String> SIZING = Set.of(
            "threads",
            "users",
            "rampUp",
            "duration",
            "messages",
            "messagesPerSecond",
            "pauseMillis",
            "holdMillis",
            "aliveMillis",
            "silentAfterSeconds",
            "heartbeatMillis",
            "replyTimeoutMillis",
            "connectsPerSecond",
            "stepRampSeconds",
            "stepHoldSeconds",
            "port",
            "timingLog");

    /** Properties naming a file of the user's own: a plan IT that passes its own file runs the same. */
    private static final Set<String> USERS_OWN_FILES = Set.of("usersFile");

    /**
     * Properties that only watch a run (the server's figures beside it): a line that adds them to another line's
     * properties runs that line too, and a plan IT that watches its own server (at its own address) runs a line
     * that watches.
     */
    private static final Set<String> WATCHING = Set.of("serverFigures", "serverFiguresMillis", "serverFiguresLog");

    /**
     * What the plan ITs run, as their sources write it (the port aside): a docs line that asks for the same plan
     * with the same properties, sizes apart, is covered there. A literal an IT no longer writes fails here: then
     * update this list.
     */
    static final List<PlanItRun> PLAN_IT_RUNS = List.of(
            new PlanItRun(
                    SpringAppsIT.class,
                    "greetingsPlanWorksAgainstTheGuidesAppWithHostAndPortOnly",
                    "greetings",
                    "host=127.0.0.1",
                    "messages=2",
                    "holdMillis=3000",
                    "rampUp=0"),
            new PlanItRun(
                    JMeterPlansIT.class,
                    "echoAwaitsEveryReplyAndBuildsTheDashboard",
                    "echo",
                    "indexPath=/index",
                    "pullPath=/clientPull",
                    "endpoint=/ws",
                    "threads=3",
                    "rampUp=0",
                    "duration=8",
                    "pauseMillis=200",
                    "replyTimeoutMillis=2000",
                    "summariser.interval=3"),
            new PlanItRun(
                    SpringAppsIT.class,
                    "formLoginWithCsrfAndAUsersFileAgainstASpringSecurityApp",
                    "echo",
                    "host=127.0.0.1",
                    "endpoint=/chat-websocket",
                    "destination=/app/echo",
                    "subscribeTo=/user/queue/echo",
                    "threads=3",
                    "rampUp=0",
                    "duration=8",
                    "pauseMillis=200",
                    "usersFile=",
                    "formLoginPath=/login",
                    "csrfPath=/csrf"),
            new PlanItRun(
                    ServerFiguresIT.class,
                    "theGreetingAppsActuatorAndItsProcessArePolledIntoTheFileDuringTheRun",
                    "greetings",
                    "host=127.0.0.1",
                    "messages=3",
                    "holdMillis=2500",
                    "rampUp=0",
                    "serverFigures=actuator:http://127.0.0.1:",
                    "serverFiguresMillis=200",
                    "serverFiguresLog="),
            new PlanItRun(
                    ServerFiguresIT.class,
                    "aConnectTestSaysTheServersAndTheGeneratorsMemoryPerHeldSession",
                    "connect",
                    "host=127.0.0.1",
                    "endpoint=/gs-guide-websocket",
                    "subscribeTo=/topic/greetings",
                    "users=40",
                    "threads=2",
                    "rampUp=0",
                    "duration=6",
                    "aliveMillis=500",
                    "serverFigures=actuator:http://127.0.0.1:",
                    "serverFiguresMillis=200",
                    "serverFiguresLog="),
            new PlanItRun(
                    ArtemisBrokerIT.class,
                    "echoWithOneLoginForEveryUserAndAQueuePerUser",
                    "echo",
                    "host=127.0.0.1",
                    "transport=raw",
                    "endpoint=/",
                    "indexPath=none",
                    "pullPath=none",
                    "threads=3",
                    "rampUp=0",
                    "duration=8",
                    "pauseMillis=100",
                    "login=guest",
                    "passcode=guest",
                    "destination=/queue/echo.{{userNumber}}",
                    "subscribeTo=/queue/echo.{{userNumber}}",
                    "replyTimeoutMillis=3000"),
            new PlanItRun(
                    ArtemisBrokerIT.class,
                    "subscribeHeadersGiveEachUserADurableSubscriptionAtTheBroker",
                    "connect",
                    "host=127.0.0.1",
                    "transport=raw",
                    "endpoint=/",
                    "indexPath=none",
                    "pullPath=none",
                    "users=4",
                    "threads=2",
                    "rampUp=0",
                    "duration=10",
                    "aliveMillis=300",
                    "login=guest",
                    "passcode=guest",
                    "connectHeaders=client-id:bench",
                    "subscribeTo=/topic/prices",
                    "subscribeHeaders=durable-subscription-name:sub.{{userNumber}};subscription-type:MULTICAST"),
            new PlanItRun(
                    DeadClientsIT.class,
                    "artemisClosesEverySilentSessionOnceItsHeartBeatsStop",
                    "connect",
                    "host=127.0.0.1",
                    "transport=raw",
                    "endpoint=/",
                    "login=guest",
                    "passcode=guest",
                    "users=6",
                    "threads=2",
                    "rampUp=0",
                    "duration=10",
                    "aliveMillis=200",
                    "heartbeatMillis=300",
                    "silentShare=0.5",
                    "silentAfterSeconds=0.5"),
            new PlanItRun(
                            JMeterPlansIT.class,
                            "fiveUsersWithReplySamples",
                            "send",
                            "indexPath=/index",
                            "pullPath=/clientPull",
                            "endpoint=/ws",
                            "users=5",
                            "rampUp=0",
                            "duration=12",
                            "messagesPerSecond=20",
                            "replyTimeoutMillis=3000",
                            "replySamples=true")
                    .withDashboard(),
            new PlanItRun(
                    JMeterPlansIT.class,
                    "tenUsersOnTwoThreads",
                    "connect",
                    "indexPath=/index",
                    "pullPath=/clientPull",
                    "endpoint=/ws",
                    "users=10",
                    "threads=2",
                    "rampUp=0",
                    "duration=8",
                    "aliveMillis=1000",
                    "sockjsstomp.reconnectMinMillis=2000",
                    "sockjsstomp.reconnectMaxMillis=60000"),
            new PlanItRun(
                    ReceiptsIT.class,
                    "everySendToArtemisHasItsReceiptBesideItsReply",
                    "send",
                    "host=127.0.0.1",
                    "transport=raw",
                    "endpoint=/",
                    "indexPath=none",
                    "pullPath=none",
                    "login=guest",
                    "passcode=guest",
                    "threads=2",
                    "rampUp=0",
                    "duration=6",
                    "replyTimeoutMillis=3000",
                    "receipts=true",
                    "messagesPerSecond=20",
                    "destination=/queue/echo.{{userNumber}}",
                    "subscribeTo=/queue/echo.{{userNumber}}"),
            new PlanItRun(
                    ArtemisAcksIT.class,
                    "consumeStepsSlowEveryConsumerWhileTheProducersKeepTheirRate",
                    "send",
                    Stream.concat(
                                    Stream.of(
                                            "host=127.0.0.1",
                                            "transport=raw",
                                            "endpoint=/",
                                            "indexPath=none",
                                            "pullPath=none"),
                                    ArtemisAcksIT.CONSUME_STEPS.stream())
                            .toArray(String[]::new)),
            new PlanItRun(
                    ReceiptsIT.class,
                    "awaitReceiptIsAnsweredByTheReceiptAlone",
                    "echo",
                    "host=127.0.0.1",
                    "transport=raw",
                    "endpoint=/",
                    "indexPath=none",
                    "pullPath=none",
                    "login=guest",
                    "passcode=guest",
                    "threads=2",
                    "rampUp=0",
                    "duration=6",
                    "replyTimeoutMillis=3000",
                    "mode=await-receipt",
                    "pauseMillis=100",
                    "destination=/queue/orders.{{userNumber}}",
                    "subscribeTo=none"));

    @TempDir
    static Path dir;

    private static DemoServer demo;
    private static GreetingApp greetings;
    private static SecuredChatApp secured;
    private static ArtemisBroker artemis;
    private static RabbitBroker rabbit;

    /** The servers start when a line first needs one: a server no line runs against costs nothing. */
    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    @AfterAll
    static void stopServers() throws Exception {
        for (AutoCloseable server : new AutoCloseable[] {demo, greetings, secured, artemis, rabbit}) {
            if (server != null) {
                server.close();
            }
        }
    }

    static List<ReadmeCommand> commands() throws IOException {
        List<ReadmeCommand> found = ReadmeCommand.all(PlanRun.projectRoot());
        assertThat(found).as("command lines in the docs").hasSizeGreaterThanOrEqualTo(15);
        return found;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void runsAsWrittenWithItsBooksBalanced(ReadmeCommand command) throws Exception {
        assertThat(command.plan()).as("the plan of %s", command).isNotNull();
        Set<String> read = planReads(command.plan());
        assertThat(command.properties().keySet())
                .as("%s: properties %s.jmx does not read", command, command.plan())
                .allSatisfy(name -> {
                    if (name.startsWith(PlanVocabulary.JVM_WIDE_PREFIX)) {
                        assertThat(PlanVocabulary.JVM_WIDE)
                                .contains(name.substring(PlanVocabulary.JVM_WIDE_PREFIX.length()));
                    } else if (!name.contains(".")) { // a dotted name is JMeter's own
                        assertThat(read).contains(name);
                    }
                });
        if (command.elsewhere()) {
            return; // no such server here: the properties it passes are what can be checked
        }
        Optional<PlanItRun> covered =
                PLAN_IT_RUNS.stream().filter(it -> it.covers(command)).findFirst();
        if (covered.isPresent()) {
            covered.get().assertStillWritten();
            return;
        }
        Optional<ReadmeCommand> watched = commands().stream()
                .filter(other -> watchedRunOf(other, command))
                .findFirst();
        if (watched.isPresent()) {
            return; // that line's run, here too, is this one's with the server's figures watched beside it
        }
        if (GreetingAppCapacityIT.runs(command)) {
            return; // run there as written, its verdict asserted: it is meant to break the app, not to balance
        }
        Path work = Files.createTempDirectory(dir, "run-");
        Map<String, String> asRun = asRun(command, read);
        Path console = runAsWritten(command, read, work);
        List<Map<String, String>> rows = PlanRun.readCsv(work.resolve("results.jtl"));
        assertThat(rows)
                .as("%s; console: %s", command, Files.readString(console))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("success"))
                        .as("%s %s %s", r.get("label"), r.get("responseCode"), r.get("responseMessage"))
                        .isEqualTo("true"));
        PlanRun run = new PlanRun(work, rows, work.resolve("stomp-timing.csv"));
        if (run.labels().containsKey("session")) {
            assertThat(run.count("session")).as("a session sample per user").isEqualTo(expectedUsers(asRun));
        }
        Optional<String> sender = sendLabel(command.plan());
        if (sender.isPresent()) {
            // The run writes no books line when it sent nothing.
            PlanRun.BooksLine books = PlanRun.BooksLine.in(
                    Files.readString(work.resolve("jmeter.log"), StandardCharsets.UTF_8),
                    "jmeter.log; samples " + run.labels() + "; console: " + Files.readString(console));
            assertThat(books.sent())
                    .as("messages sent; console: %s", Files.readString(console))
                    .isPositive();
            assertThat(List.of(books.sent(), books.answered(), books.lost(), books.failed()))
                    .as("sent, answered, lost, failed of %s", command)
                    .containsExactly(books.sent(), books.sent(), 0L, 0L);
            boolean replySamples = replySamples(command.plan(), asRun);
            long samples = messageSamples(run, sender.get(), replySamples);
            if (replySamples) {
                // The replies thread stops with the senders: a message that finished from its last sample on (in
                // the drain) is in the timing log and the books only; every one before it is a reply row.
                Path timingLog = work.resolve(asRun.getOrDefault("timingLog", "stomp-timing.csv"));
                long drained = PlanRun.finishedFromTheLastReplyRow(run.rows(), timingLog);
                // A row per record of the timing log: a message's outcome, or in a broadcast each copy received; a
                // message delivered again (a NACK's) is no answer, so it has its record and no row.
                long records = Files.readAllLines(timingLog, StandardCharsets.UTF_8).stream()
                        .skip(1)
                        .filter(record -> !record.split(",", 3)[1].equals("REDELIVERED"))
                        .count();
                assertThat(samples)
                        .as(
                                "a reply sample per timing record (%d), %d in the drain aside; samples %s",
                                records, drained, run.labels())
                        .isBetween(records - drained, records);
            } else {
                assertThat(samples)
                        .as("a sample per message; samples %s", run.labels())
                        .isEqualTo(books.sent());
            }
        }
    }

    /**
     * Whether {@code other} is {@code line} with only {@link #WATCHING} properties added, and runs here itself (no
     * plan IT covers it): then its run is {@code line}'s run too. A property given its plan's default is the same
     * run as that property left out ({@code -Jhost=127.0.0.1} on one line, nothing on the other).
     */
    static boolean watchedRunOf(ReadmeCommand other, ReadmeCommand line) {
        if (other == line
                || !other.plan().equals(line.plan())
                || !other.options().equals(line.options())
                || other.elsewhere()
                || PLAN_IT_RUNS.stream().anyMatch(it -> it.covers(other))) {
            return false;
        }
        Map<String, Set<String>> defaults = PlanItRun.planDefaults(line.plan());
        Map<String, String> added = notDefaults(other.properties(), defaults);
        for (Map.Entry<String, String> asked :
                notDefaults(line.properties(), defaults).entrySet()) {
            if (!asked.getValue().equals(added.remove(asked.getKey()))) {
                return false;
            }
        }
        return !added.isEmpty() && WATCHING.containsAll(added.keySet());
    }

    private static Map<String, String> notDefaults(Map<String, String> properties, Map<String, Set<String>> defaults) {
        Map<String, String> asked = new TreeMap<>(properties);
        asked.entrySet().removeIf(p -> Set.of(p.getValue()).equals(defaults.get(p.getKey())));
        return asked;
    }

    /**
     * The samples that count the messages. With send.jmx's replySamples (its default) every message is one
     * {@code reply <destination>} row and the sender's rows are kept out of the listeners; without it the
     * sender's rows carry the messages they sent as their sample count.
     */
    private static long messageSamples(PlanRun run, String sender, boolean replySamples) {
        if (!replySamples) {
            return run.count(sender);
        }
        assertThat(run.count(sender))
                .as("%s rows kept out of the listeners", sender)
                .isZero();
        return run.labels().entrySet().stream()
                .filter(e -> e.getKey().startsWith("reply "))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** Timing log records whose reply came at or after the last reply row's (JMeter's end stamp, in ms). */
    /** Whether the run turns every message into a reply sample: the line's replySamples, else the plan's. */
    private static boolean replySamples(String plan, Map<String, String> asRun) {
        String value = asRun.get("replySamples");
        if (value == null) {
            Set<String> defaults = PlanItRun.planDefaults(plan).get("replySamples");
            value = defaults == null ? "false" : String.join(",", defaults);
        }
        return value.equals("true");
    }

    /** The properties a line runs with here: its own, then the ones {@link #runAsWritten} appends (later win). */
    private static Map<String, String> asRun(ReadmeCommand command, Set<String> read) {
        Map<String, String> properties = new TreeMap<>(command.properties());
        for (String property : SHORT) {
            String name = property.substring(0, property.indexOf('='));
            if (read.contains(name)) {
                properties.put(name, property.substring(property.indexOf('=') + 1));
            }
        }
        return properties;
    }

    private static Path runAsWritten(ReadmeCommand command, Set<String> read, Path work) throws Exception {
        List<String> appended = new ArrayList<>();
        for (String property : SHORT) {
            if (read.contains(property.substring(0, property.indexOf('=')))) {
                appended.add(property);
            }
        }
        if (command.properties().containsKey("silentShare")) {
            // 200 sessions connect one after another per thread (seconds on a busy machine), Artemis checks its
            // connections' TTL every 2 s: a silent session it had not closed by the end would be NotExpired.
            appended.add("duration=15");
        }
        int port = portFor(command);
        if (rabbit != null && port == rabbit.webStompPort()) {
            // its management API, where a line watches the broker's figures
            ReadmeCommand atTheNode = ReadmeCommand.parse(
                    command.text().replace("127.0.0.1:15672", "127.0.0.1:" + rabbit.managementPort()),
                    String.join(", ", command.where()));
            return runInBash(atTheNode, port, appended, work);
        }
        return runInBash(command, port, appended, work);
    }

    /**
     * Runs a line through bash in {@code work} as a user types it from the repository's root (jmx/ is there, and a
     * users.csv), with the server's {@code port}, these properties appended (later -J win), no JIT warm-up and
     * jmeter.log in {@code work}; it must exit 0. Returns the console's file.
     */
    static Path runInBash(ReadmeCommand command, int port, List<String> appended, Path work) throws Exception {
        Files.createSymbolicLink(work.resolve("jmx"), PlanRun.projectRoot().resolve("jmx"));
        Files.writeString(work.resolve("users.csv"), "login,passcode\nalice,alice-pass\nbob,bob-pass\n");
        StringBuilder runnable = new StringBuilder(command.text()
                .replaceFirst("^\\S*jmeter ", PlanRun.jmeterHome().resolve("bin/jmeter") + " ")
                .replaceAll("-Jport=\\d+", "-Jport=" + port));
        if (!command.properties().containsKey("port")) {
            runnable.append(" -Jport=").append(port);
        }
        for (String property : appended) {
            runnable.append(" -J").append(property);
        }
        runnable.append(" -Jsockjsstomp.warmUp=false -j jmeter.log");
        Path console = work.resolve("console.txt");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", runnable.toString())
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(console.toFile());
        builder.environment().put("HEAP", "-Xms256m -Xmx768m");
        int exit = PlanRun.waitFor(builder.start(), List.of(runnable.toString()), console);
        assertThat(exit).as(Files.readString(console)).isZero();
        return console;
    }

    /**
     * The users a line's run connects here: {@code users}, the number of virtual users (threads only place them);
     * a plan that reads no {@code users} runs one per thread.
     */
    private static long expectedUsers(Map<String, String> asRun) {
        String users = asRun.getOrDefault("users", asRun.get("threads"));
        assertThat(users).as("the users of %s", asRun).isNotNull().matches("\\d+");
        return Long.parseLong(users);
    }

    /** The label of the plan's send sampler, if it has one: a plan meant to get its messages answered. */
    private static Optional<String> sendLabel(String plan) throws IOException {
        Matcher sampler = Pattern.compile(
                        "<JavaSampler [^>]*testname=\"([^\"]+)\"[\\s\\S]*?<stringProp name=\"classname\">([^<]+)<")
                .matcher(Files.readString(PlanRun.planFile(plan), StandardCharsets.UTF_8));
        while (sampler.find()) {
            if (sampler.group(2).endsWith(".StompSendSampler")) {
                return Optional.of(sampler.group(1));
            }
        }
        return Optional.empty();
    }

    private static Set<String> planReads(String plan) throws IOException {
        return PlanPropertyNames.in(Files.readString(PlanRun.planFile(plan), StandardCharsets.UTF_8));
    }

    /** The server a command line is written for (started if it is not yet). */
    private static synchronized int portFor(ReadmeCommand command) throws Exception {
        Map<String, String> properties = command.properties();
        if ("61614".equals(properties.get("port"))) {
            if (artemis == null) {
                artemis = ArtemisBroker.start(dir.resolve("artemis"), Map.of("guest", "guest"), 0);
            }
            return artemis.port();
        }
        if ("15674".equals(properties.get("port"))) {
            if (rabbit == null) {
                rabbit = RabbitBroker.start(dir.resolve("rabbitmq"));
            }
            rabbit.deleteQueues();
            return rabbit.webStompPort();
        }
        String endpoint = properties.getOrDefault("endpoint", "");
        if (endpoint.equals("/chat-websocket")) {
            if (secured == null) {
                secured = SecuredChatApp.start(false, StompAuth.HANDSHAKE_AND_CSRF);
            }
            return secured.port();
        }
        if (endpoint.equals("/gs-guide-websocket") || command.plan().equals("greetings")) {
            if (greetings == null) {
                greetings = GreetingApp.start();
            }
            return greetings.port();
        }
        assertThat(properties).as("a demo server line names its login steps").containsEntry("indexPath", "/index");
        if (demo == null) {
            demo = DemoServer.start(0);
        }
        return demo.port();
    }

    /**
     * One run of a plan IT, as its source writes it; {@code dashboard}: the IT has JMeter build its HTML dashboard
     * ({@code -e -o <directory>}, the directory's name aside).
     */
    record PlanItRun(Class<?> it, String method, String plan, boolean dashboard, List<String> written) {

        PlanItRun(Class<?> it, String method, String plan, String... written) {
            this(it, method, plan, false, List.of(written));
        }

        PlanItRun withDashboard() {
            return new PlanItRun(it, method, plan, true, written);
        }

        Map<String, String> properties() {
            return ReadmeCommand.parse(
                            "jmeter -t " + plan + ".jmx -J"
                                    + String.join(
                                            " -J",
                                            written.stream()
                                                    .map(p -> "'" + p + "'")
                                                    .toList()),
                            it.getSimpleName())
                    .properties();
        }

        /**
         * The same plan and the same properties, sizes apart; the IT's other properties only say what the plan
         * does anyway (its default, or none for an empty one) or are JMeter's own.
         */
        boolean covers(ReadmeCommand command) {
            if (!plan.equals(command.plan()) || !sameOptions(command.options())) {
                return false;
            }
            Map<String, String> mine = properties();
            for (Map.Entry<String, String> asked : command.properties().entrySet()) {
                String name = asked.getKey();
                boolean same = SIZING.contains(name)
                        || asked.getValue().equals(mine.get(name))
                        || (USERS_OWN_FILES.contains(name) && mine.containsKey(name))
                        || (WATCHING.contains(name) && mine.containsKey(name));
                if (!same) {
                    return false;
                }
            }
            Map<String, Set<String>> defaults = planDefaults(plan);
            for (Map.Entry<String, String> extra : mine.entrySet()) {
                String name = extra.getKey();
                boolean sameAnyway = SIZING.contains(name)
                        || WATCHING.contains(name)
                        || name.contains(".")
                        || command.properties().containsKey(name)
                        || extra.getValue().equals("none")
                        || Set.of(extra.getValue()).equals(defaults.get(name));
                if (!sameAnyway) {
                    return false;
                }
            }
            return true;
        }

        /**
         * A results file, and the dashboard when this run builds one (its directory is a name only). JMeter builds
         * the dashboard after the test: a run that builds one is also the run of a line that asks for none.
         */
        private boolean sameOptions(List<String> options) {
            List<String> results = List.of("-l", "results.jtl");
            if (!dashboard || options.equals(results)) {
                return options.equals(results);
            }
            return options.size() == 5
                    && options.subList(0, 2).equals(results)
                    && options.subList(2, 4).equals(List.of("-e", "-o"));
        }

        void assertStillWritten() throws IOException {
            assertThat(Arrays.stream(it.getDeclaredMethods()).map(Method::getName))
                    .as("%s has the test this list names", it.getSimpleName())
                    .contains(method);
            Path source = PlanRun.projectRoot()
                    .resolve("src/test/java")
                    .resolve(it.getName().replace('.', '/') + ".java");
            String itself = Files.readString(source, StandardCharsets.UTF_8);
            // the broker's share of the properties (where it listens, no login steps) is written beside it
            String text = itself.contains("planProperties(")
                    ? itself
                            + Files.readString(
                                    source.resolveSibling("../broker/ArtemisBroker.java")
                                            .normalize(),
                                    StandardCharsets.UTF_8)
                    : itself;
            assertThat(written)
                    .as(
                            "%s#%s runs %s.jmx with these (else update ReadmeCommandsIT.PLAN_IT_RUNS)",
                            it.getSimpleName(), method, plan)
                    .allSatisfy(p -> assertThat(text).contains("\"" + p + "\""));
            if (dashboard) {
                // PlanRun's report flag, true, after the run's name: run(dir, plan, true, ...) or jmeter(name, true,
                // ...), in the method's declaration (a test, or the helper that makes a run several tests share)
                Matcher declaration =
                        Pattern.compile("(?m)^    [\\w ]+ " + method + "\\(").matcher(text);
                assertThat(declaration.find())
                        .as("%s declares %s", it.getSimpleName(), method)
                        .isTrue();
                int start = declaration.start();
                assertThat(text.substring(start, text.indexOf("\n    }\n", start)))
                        .as(
                                "%s#%s builds the dashboard (else update ReadmeCommandsIT.PLAN_IT_RUNS)",
                                it.getSimpleName(), method)
                        .containsPattern("\"[\\w-]+\",\\s*true,");
            }
        }

        private static Map<String, Set<String>> planDefaults(String plan) {
            try {
                return PlanDefaults.of(PlanRun.projectRoot().resolve("jmx")).get(plan);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public String toString() {
            return it.getSimpleName() + "#" + method;
        }
    }
}
