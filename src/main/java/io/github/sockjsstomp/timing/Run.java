package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.login.UsersFile;
import io.github.sockjsstomp.client.user.AckCounts;
import io.github.sockjsstomp.client.user.SteppedConsumeTime;
import io.github.sockjsstomp.serverside.RunCounts;
import io.github.sockjsstomp.serverside.ServerFigures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One test run, from its first sampler's setup to its last teardown: it owns the run's books (its reply
 * tracker), its timing logs, its reply feed and the users files it read. Every way a test ends goes through
 * here. Each sampler joins the run of its test in setupTest and leaves that same run in teardownTest, which
 * JMeter calls on one thread after all threads stopped (normal end, Stop, Shutdown): the first to leave waits
 * for the replies still in flight while every session is still open, the last declares the rest LOST, writes
 * the books and closes the timing logs. A JVM that exits without a teardown gets the same from a shutdown hook.
 * It also owns the polling of the server's figures, when a sampler names sources: stopped when it ends.
 *
 * <p>The GUI and remote engines run many tests in one JVM. A run whose teardowns did not all come is ended by
 * the first sampler of the next test; a teardown that comes after that leaves the old, ended run alone.
 */
public final class Run {

    private static final Logger log = LoggerFactory.getLogger(Run.class);
    private static final Object LOCK = new Object();
    /** The run samplers join now; null between runs. The one place a run is found from. */
    private static Run current;

    private static boolean hookInstalled;
    private static long lastId;

    private final long testStartMillis;
    private final String id;
    private final ReplyFeed feed = new ReplyFeed(ReplyFeed.CAPACITY);
    private final ReplyTracker tracker;
    private final ExpirySweeper sweeper;
    private final ReplyDrain replyDrain;
    private final CapacityBook capacity;
    /** The consumers' acknowledgements ({@code ack} client or client-individual), over every user of the run. */
    private final AckCounts acks = new AckCounts();
    /** The users each thread group's session samplers said it runs: what steps that begin online wait for. */
    private final ExpectedUsers expectedUsers = new ExpectedUsers();
    /** Each thread group's thread count, counted once per run and group. */
    private final ThreadGroupCounts threadGroupCounts = new ThreadGroupCounts();
    /** The consumers' time per message as consume steps set it, one for every acknowledging subscription. */
    private final SteppedConsumeTime consumeTime = new SteppedConsumeTime();
    /** The run's steps, once its steps sampler set them up; null before, and in a run without steps. */
    private final AtomicReference<StepOffer> steps = new AtomicReference<>();
    /** Told when the run has ended its messages (all have an outcome), before the timing logs close. */
    private final List<Runnable> atFinish = new CopyOnWriteArrayList<>();

    private final Map<Path, TimingLog> timingLogs = new HashMap<>();
    private final Map<Path, UsersFile> usersFiles = new HashMap<>();
    /** The server's figures, polled from the first sampler that names sources to the run's end; null: none. */
    private ServerFigures serverFigures;

    private int members;
    private boolean drained;
    private boolean finished;
    /** Stop was pressed (a sampler was interrupted): the run ends without waiting for replies in flight. */
    private volatile boolean stopped;

    private long longestDrainMillis;
    /** Told, in words, of what breaks the run's figures (a timing log that cannot be written). */
    private volatile Consumer<String> problems = message -> log.error("{}", message);
    /** Told of what a user should look at (a subscription that hears nothing), once per kind. */
    private volatile Consumer<String> notices = message -> log.warn("{}", message);
    /** Told the run's closing figures (sessions held, connects and expiries); by default only jmeter.log. */
    private volatile Consumer<String> summaries = message -> log.info("{}", message);

    private final Set<String> noticed = ConcurrentHashMap.newKeySet();

    Run(long testStartMillis) {
        this.testStartMillis = testStartMillis;
        this.id = Long.toString(nextId());
        this.tracker = new ReplyTracker(MessageIds.random(), feed);
        this.capacity = new CapacityBook(tracker.steps());
        this.sweeper = ExpirySweeper.start(tracker);
        this.replyDrain = new ReplyDrain(tracker.counts());
        tracker.refusals().onFirstOfItsWords(message -> notices.accept(message));
        tracker.summarizeAlso(() -> {
            AckCounts.Snapshot now = acks.snapshot();
            return now.any() ? "stomp " + now : null;
        });
    }

    /** Run ids: epoch milliseconds when the run started; two runs started within one millisecond still differ. */
    private static synchronized long nextId() {
        lastId = Math.max(lastId + 1, System.currentTimeMillis());
        return lastId;
    }

    /**
     * A sampler of the test that started at {@code testStartMillis} joins its run; the first one starts the
     * run and hands it to {@code atStart}. The run waits for replies at its end as long as the longest
     * {@code drainMillis} of its samplers. A run of another test still open is ended first.
     */
    public static Run join(long drainMillis, long testStartMillis, Consumer<Run> atStart) {
        Run run;
        synchronized (LOCK) {
            run = current;
            if (run != null
                    && testStartMillis != 0
                    && run.testStartMillis != 0
                    && testStartMillis != run.testStartMillis) {
                log.warn(
                        "The test started at {} left its STOMP run open ({} samplers never tore down); ending it "
                                + "now, before the test started at {}",
                        run.testStartMillis,
                        run.members,
                        testStartMillis);
                run.finish();
                run = null;
            }
            if (run == null) {
                run = new Run(testStartMillis);
                current = run;
                installShutdownHook();
                // Under the lock: a sampler that joins meanwhile must find the run's reports started, or what it
                // notices at once (its users on the threads) would reach jmeter.log only.
                atStart.accept(run);
            }
            run.members++;
            run.longestDrainMillis = Math.max(run.longestDrainMillis, drainMillis);
        }
        return run;
    }

    /** Ends the open run, if any: for a JVM that exits without its teardowns. */
    public static void finishCurrent() {
        Run run;
        synchronized (LOCK) {
            run = current;
        }
        if (run != null) {
            run.finish();
        }
    }

    private static void installShutdownHook() {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(Run::finishCurrent, "stomp-run-shutdown"));
            hookInstalled = true;
        }
    }

    /** The run's id, written in every record of its timing logs. */
    public String id() {
        return id;
    }

    public ReplyTracker tracker() {
        return tracker;
    }

    /** The longest wait for replies in flight that the run's samplers asked for (their reply timeouts). */
    public long longestDrainMillis() {
        synchronized (LOCK) {
            return longestDrainMillis;
        }
    }

    public ReplyFeed feed() {
        return feed;
    }

    public Books books() {
        return tracker.books();
    }

    /** The run's sessions: held, connects, silent ones and their expiry. */
    public CapacityBook capacity() {
        return capacity;
    }

    /** The acknowledgements the run's users sent, and what they left unacknowledged. */
    public AckCounts acks() {
        return acks;
    }

    /** Who hears the run's closing figures; by default only jmeter.log. */
    public void onSummary(Consumer<String> listener) {
        summaries = listener;
    }

    /** Who hears of a problem that breaks the run's figures; by default only jmeter.log. */
    public void onProblem(Consumer<String> listener) {
        problems = listener;
    }

    /** Who hears the run's notices; by default only jmeter.log. */
    public void onNotice(Consumer<String> listener) {
        notices = listener;
    }

    /** Says {@code message} once in this run for {@code kind}: a hint, not a flood. */
    public void noticeOnce(String kind, String message) {
        if (noticed.add(kind)) {
            notices.accept(message);
        }
    }

    /** Records queued for the run's timing log writers, all logs: what a stepped run checks the generator by. */
    public long timingLogBacklog() {
        synchronized (timingLogs) {
            long queued = 0;
            for (TimingLog timingLog : timingLogs.values()) {
                queued += timingLog.queued();
            }
            return queued;
        }
    }

    /**
     * The run's timing log for this file, opened on first use: appends to an existing log of the same format.
     *
     * @param engine the JMeter engine's name, written in every record
     * @throws IOException if it cannot be created, or an existing file has another header
     */
    public TimingLog timingLog(Path path, String engine) throws IOException {
        Path key = path.toAbsolutePath().normalize();
        synchronized (timingLogs) {
            TimingLog existing = timingLogs.get(key);
            if (existing == null) {
                existing = new TimingLog(key, id, engine, message -> problems.accept(message));
                timingLogs.put(key, existing);
            }
            return existing;
        }
    }

    /** The users file, read once per run: thousands of threads share one copy, and an edit shows next run. */
    public UsersFile usersFile(Path path) {
        Path key = path.toAbsolutePath().normalize();
        synchronized (usersFiles) {
            return usersFiles.computeIfAbsent(key, UsersFile::read);
        }
    }

    /**
     * Polls the server's figures for this run, from now to its end: the first sampler that names sources starts
     * it, later ones join it.
     *
     * @return the settings being polled: the caller's, or another sampler's that came first
     * @throws IOException if the file cannot be written
     */
    public ServerFigures.Settings pollServerFigures(ServerFigures.Settings settings) throws IOException {
        synchronized (LOCK) {
            if (serverFigures == null && !finished) {
                serverFigures = ServerFigures.start(settings, counts(), message -> notices.accept(message));
            }
            return serverFigures == null ? settings : serverFigures.settings();
        }
    }

    /** What the server's figures are divided by: this run's sessions held and messages sent. */
    private RunCounts counts() {
        long runId = Long.parseLong(id);
        return new RunCounts() {
            @Override
            public long runId() {
                return runId;
            }

            @Override
            public long sessionsHeld() {
                return capacity.held();
            }

            @Override
            public long messagesSent() {
                return tracker.books().sent();
            }
        };
    }

    /** The users the run's thread groups said they run, which steps that begin online wait for. */
    public ExpectedUsers expectedUsers() {
        return expectedUsers;
    }

    /** How many threads each thread group of the run starts, counted once per group. */
    public ThreadGroupCounts threadGroupCounts() {
        return threadGroupCounts;
    }

    /** The consumers' time per message, as consume steps set it (each subscription's own until they do). */
    public SteppedConsumeTime consumeTime() {
        return consumeTime;
    }

    /**
     * The run's steps, for the threads that follow them; null until the steps sampler set them up (it may set up
     * after them: JMeter sets a Java sampler up in its thread's first sample), and in a run without steps.
     */
    public StepOffer steps() {
        return steps.get();
    }

    /**
     * {@code made} become the run's steps unless it has some already: a run has one steps sampler.
     *
     * @return the run's steps: {@code made}, or those set up first
     */
    public StepOffer adoptSteps(StepOffer made) {
        return steps.compareAndExchange(null, made) == null ? made : steps.get();
    }

    /** {@code action} runs when the run ends, after every message has its outcome and before the logs close. */
    public void atFinish(Runnable action) {
        atFinish.add(action);
    }

    /** JMeter's Stop or Shutdown interrupted a sample: whoever pressed it wants the end now, not a drain. */
    public void stop() {
        stopped = true;
    }

    /**
     * A sampler leaves this run (its teardownTest). The first to leave waits up to the longest drain of the run
     * for outstanding replies; the last ends the run. Leaving a run already ended does nothing.
     */
    public void leave() {
        synchronized (LOCK) {
            if (finished) {
                return;
            }
        }
        awaitReplies();
        boolean last;
        synchronized (LOCK) {
            members = Math.max(0, members - 1);
            last = members == 0;
        }
        if (last) {
            finish();
        }
    }

    /**
     * The first call waits up to the longest drain of the run for outstanding replies (a sampler's teardown, while
     * every session is still open); later calls, and calls once the run ended, return at once.
     */
    public void awaitReplies() {
        long drainMillis;
        synchronized (LOCK) {
            if (finished || drained) {
                return;
            }
            drained = true;
            drainMillis = longestDrainMillis;
        }
        if (!stopped) {
            drain(drainMillis);
        }
    }

    private void drain(long drainMillis) {
        try {
            if (!replyDrain.awaitQuiet(drainMillis, 250)) {
                log.info(
                        "Replies or receipts still outstanding after {} ms: a message without its reply will be "
                                + "LOST (test-ended), one without its receipt counted as no-receipt",
                        drainMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Marks what is still outstanding LOST, closes the timing logs and logs the books, once. */
    void finish() {
        synchronized (LOCK) {
            if (finished) {
                return;
            }
            finished = true;
            if (current == this) {
                current = null;
            }
        }
        tracker.abandonAll("test-ended");
        tracker.endSummary();
        for (Runnable action : atFinish) {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.error("At the run's end: {}", action, e);
            }
        }
        String figures = capacity.figures();
        if (figures != null) {
            summaries.accept(figures);
        }
        String compression = capacity.agreementsLine();
        if (compression != null) {
            summaries.accept(compression);
        }
        ServerFigures polling;
        synchronized (LOCK) {
            polling = serverFigures;
        }
        if (polling != null) {
            // every message has its outcome: the readings are complete
            polling.close();
            polling.costLines().forEach(summaries);
        }
        capacity.connectFailures().forEach(line -> summaries.accept("stomp connects failed: " + line));
        AckCounts.Snapshot acknowledged = acks.snapshot();
        if (acknowledged.any()) {
            summaries.accept("stomp " + acknowledged);
        }
        tracker.refusals().endLines().forEach(summaries);
        sweeper.close();
        long unwritten = 0;
        long afterClose = 0;
        synchronized (timingLogs) {
            for (TimingLog timingLog : timingLogs.values()) {
                timingLog.close();
                unwritten += timingLog.unwritten();
                afterClose += timingLog.late();
            }
        }
        if (afterClose > 0) {
            // a reply read while the run ended (a Stop does not drain): counted in the books, its row too late
            summaries.accept("stomp timing log: " + afterClose + " record(s) came after the log closed and are not in"
                    + " it (the run ended while their replies were being read); the books count them");
        }
        Books books = tracker.books();
        if (books.sent() > 0 || books.untimed() > 0) {
            Histogram latency = tracker.counts().latencySnapshot();
            log.info(
                    "STOMP timing books: {}{}; latency us: p50={} p90={} p99={} p99.9={} max={} ({} answers){}",
                    books,
                    unwritten == 0 ? "" : ", timing log unwritten=" + unwritten,
                    Percentiles.higher(latency, 0.5),
                    Percentiles.higher(latency, 0.9),
                    Percentiles.higher(latency, 0.99),
                    Percentiles.higher(latency, 0.999),
                    latency.getMaxValue(),
                    latency.getTotalCount(),
                    receiptLatency(books));
        }
    }

    /** The receipts' latency, when any was asked for; apart from the replies'. */
    private String receiptLatency(Books books) {
        if (books.receiptsAsked() == 0) {
            return "";
        }
        Histogram receipts = tracker.counts().receipts().latencySnapshot();
        return "; receipt us: p50=" + Percentiles.higher(receipts, 0.5) + " p90=" + Percentiles.higher(receipts, 0.9)
                + " p99=" + Percentiles.higher(receipts, 0.99) + " p99.9=" + Percentiles.higher(receipts, 0.999)
                + " max=" + receipts.getMaxValue() + " (" + receipts.getTotalCount() + " receipts)";
    }

    @Override
    public String toString() {
        return "Run[" + id + ", " + members + " samplers, " + tracker.books() + "]";
    }
}
