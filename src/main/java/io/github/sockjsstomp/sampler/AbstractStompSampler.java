package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.*;

import io.github.sockjsstomp.client.ClientSettings;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.HeaderList;
import io.github.sockjsstomp.client.SessionNames;
import io.github.sockjsstomp.client.SharedStompClients;
import io.github.sockjsstomp.client.StepResult;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.UsersFile;
import io.github.sockjsstomp.timing.ReplyTracker;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingRun;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.TimingStompUser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skeleton every STOMP sampler shares. JMeter makes one instance per thread, calls {@link #setupTest}
 * inside the thread's first sample, {@link #runTest} per sample, and {@link #teardownTest} on the engine
 * thread once all threads have stopped. Parameters are read and checked in setupTest; a problem turns every
 * sample into a ConfigError naming the parameter and value. Nothing escapes runTest.
 *
 * <p>A thread owns {@code sessionsPerThread} virtual users, each with its own login, cookies and STOMP
 * session, so a generator holds far more sessions than it has threads; samples use them in turn.
 *
 * <p>The constructor and static state stay free of Spring: JMeter's GUI instantiates samplers to list them.
 */
public abstract class AbstractStompSampler extends AbstractJavaSamplerClient implements Interruptible {

    private static final Logger log = LoggerFactory.getLogger(AbstractStompSampler.class);
    static final int MAX_SESSIONS_PER_THREAD = 100_000;

    /** The virtual users of this thread; empty when the configuration was refused. */
    private List<TimingStompUser> sessions = List.of();
    /** Whether the sessions are those a session sampler of this thread opened (and will close). */
    private boolean attached;
    private int nextSession;
    private List<String> configErrors = List.of();
    private List<String> subscribeTo = List.of();
    /** The run this sampler joined in setupTest and leaves in teardownTest; null outside one. */
    private TimingRun run;
    private long connectIntervalNanos;
    private long nextConnectNanos;
    /** The outcome of the connects made in setupTest, reported by the first sample if one failed. */
    private SampleResult setupFailure;
    private final Object interruptLock = new Object();
    private Thread samplingThread;
    private boolean interruptRequested;

    /**
     * A send sampler lists only its own parameters: its connection settings are the session sampler's, and
     * JMeter's GUI adds every listed parameter back to a plan it opens. Given connection parameters anyway
     * (plans made before the session sampler, tests), a send sampler opens sessions of its own.
     */
    @Override
    public Arguments getDefaultParameters() {
        Arguments args = attachesToThreadSessions() ? new Arguments() : connectionParameters(defaultSubscribeTo());
        addParameters(args);
        return args;
    }

    /** The parameters of a connection: where, how, who, and what to subscribe to. */
    static Arguments connectionParameters(String defaultSubscribeTo) {
        Arguments args = new Arguments();
        args.addArgument(SCHEME, SCHEME_DEFAULT, null, "http or https");
        args.addArgument(HOST, HOST_DEFAULT);
        args.addArgument(PORT, PORT_DEFAULT);
        args.addArgument(ENDPOINT, ENDPOINT_DEFAULT, null, "SockJS endpoint path, or WebSocket path for raw");
        args.addArgument(TRANSPORT, TRANSPORT_DEFAULT, null, Transport.allowedValues());
        args.addArgument(INDEX_PATH, INDEX_PATH_DEFAULT, null, "GET before connecting; empty or none skips it");
        args.addArgument(PULL_PATH, PULL_PATH_DEFAULT, null, "GET after the index; empty or none skips it");
        args.addArgument(LOGIN, "", null, "STOMP login, e.g. guest (every user) or user-{{session}} (unique)");
        args.addArgument(PASSCODE, "");
        args.addArgument(USERS, "", null, "CSV file of login,passcode lines, one per user; overrides login");
        args.addArgument(CONNECT_HEADERS, "", null, "extra CONNECT headers: name:value;name2:value2");
        args.addArgument(HEARTBEAT_MILLIS, HEARTBEAT_MILLIS_DEFAULT, null, "STOMP heart-beat both ways; 0 = off");
        args.addArgument(CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS_DEFAULT);
        args.addArgument(SESSIONS_PER_THREAD, SESSIONS_PER_THREAD_DEFAULT, null, "virtual users this thread owns");
        args.addArgument(CONNECTS_PER_SECOND, CONNECTS_PER_SECOND_DEFAULT, null,
                "this thread's connect rate; 0 = as fast as they complete");
        args.addArgument(SUBSCRIBE_TO, defaultSubscribeTo, null, "destinations, comma-separated");
        return args;
    }

    /** Adds this sampler's own parameters after the connection ones. */
    protected abstract void addParameters(Arguments args);

    protected String defaultSubscribeTo() {
        return "";
    }

    /** Reads this sampler's own parameters; problems go to the reader. */
    protected abstract TimingOptions readParameters(ParameterReader params);

    /** Where this sampler's send outcomes go; only senders have one. */
    protected TimingSink openTimingSink(ParameterReader params) {
        return TimingSink.NONE;
    }

    /** Whether this sampler sends messages whose replies are timed (its replies may be in flight at the end). */
    protected boolean sendsTimedMessages() {
        return false;
    }

    /** Send and receive samplers connect in setupTest; the connect sampler makes connecting its sample. */
    protected boolean connectsInSetup() {
        return true;
    }

    /** Whether this sampler's sessions are there for the samplers after it in the thread to send on. */
    protected boolean publishesSessions() {
        return false;
    }

    /**
     * Whether this sampler, given no connection parameters, sends on the sessions a session sampler opened
     * before it in the same thread.
     */
    protected boolean attachesToThreadSessions() {
        return false;
    }

    protected TimingStompUser createUser(SharedStompClients shared, UserSettings settings, TimingOptions timing,
            TimingSink sink) {
        return new TimingStompUser(shared, settings, ReplyTracker.shared(), timing, sink);
    }

    /** One sample; the sessions are set up. May throw InterruptedException; other failures become results. */
    protected abstract SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException;

    @Override
    public final void setupTest(JavaSamplerContext context) {
        String label = label(context);
        ParameterReader params = new ParameterReader(context);
        if (attachesToThreadSessions() && !context.containsParameter(HOST)) {
            attach(params, label);
            return;
        }
        List<UserSettings> users = readUsers(params);
        subscribeTo = splitDestinations(params.optional(SUBSCRIBE_TO, defaultSubscribeTo()));
        subscribeTo.forEach(d -> checkPlaceholders(params, SUBSCRIBE_TO, d, SessionNames.DESTINATION_PLACEHOLDERS));
        double connectsPerSecond = params.decimal(CONNECTS_PER_SECOND, 0, 0, 1_000_000);
        TimingOptions timing = readParameters(params);
        ClientSettings clientSettings = clientSettings(params);
        TimingSink sink = params.hasErrors() ? TimingSink.NONE : openTimingSink(params);
        if (params.hasErrors() || users == null || timing == null) {
            refuse(params, label);
            return;
        }
        SharedStompClients shared = SharedStompClients.get(clientSettings);
        List<TimingStompUser> created = new ArrayList<>(users.size());
        for (UserSettings settings : users) {
            created.add(createUser(shared, settings, timing, sink));
        }
        sessions = List.copyOf(created);
        if (publishesSessions()) {
            ThreadSessions.publish(label, sessions, subscribeTo);
        }
        connectIntervalNanos = connectsPerSecond > 0 ? (long) (TimeUnit.SECONDS.toNanos(1) / connectsPerSecond) : 0;
        nextConnectNanos = System.nanoTime();
        enterRun(timing);
        if (connectsInSetup()) {
            connectAllInSetup(label);
        }
    }

    /** Sends on the sessions the thread's session sampler opened, which connects, reconnects and closes them. */
    private void attach(ParameterReader params, String label) {
        TimingOptions timing = readParameters(params);
        ThreadSessions thread = ThreadSessions.current();
        if (thread == null) {
            params.problem("'" + label + "' has no connection parameters (host, port, ...) and no session sampler "
                    + "(" + StompConnectSampler.class.getSimpleName() + ") ran before it in this thread; put one "
                    + "before it, or give it the connection parameters");
        }
        TimingSink sink = params.hasErrors() || timing == null ? TimingSink.NONE : openTimingSink(params);
        if (!params.hasErrors() && timing != null) {
            String conflict = thread.useTiming(label, timing, sink);
            if (conflict != null) {
                params.problem(conflict);
            }
        }
        if (params.hasErrors() || timing == null) {
            refuse(params, label);
            return;
        }
        sessions = thread.users();
        subscribeTo = thread.subscribeTo();
        attached = true;
        enterRun(timing);
    }

    /** Every sample of this thread will be a ConfigError naming the problems. */
    private void refuse(ParameterReader params, String label) {
        configErrors = params.hasErrors() ? params.errors() : List.of("Invalid configuration");
        log.error("{}: configuration refused: {}", label, configErrors);
    }

    private void enterRun(TimingOptions timing) {
        // Only senders have replies in flight at the end; listeners and connections need no drain of their own.
        run = TimingRun.join(sendsTimedMessages() ? timing.replyTimeoutMillis() + 1000 : 0,
                JMeterContextService.getTestStartTime(), ReplySummaries::start);
    }

    private void connectAllInSetup(String label) {
        int failures = 0;
        SampleResult firstFailure = null;
        try {
            for (TimingStompUser user : sessions) {
                SampleResult connected = connectSample(user, label + " connect");
                if (!connected.isSuccessful()) {
                    failures++;
                    firstFailure = firstFailure == null ? connected : firstFailure;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            setupFailure = SampleResults.immediateFailure(label, SampleResults.INTERRUPTED,
                    "Interrupted while connecting");
            return;
        }
        if (firstFailure != null && sessions.size() > 1) {
            firstFailure.setResponseMessage(failures + " of " + sessions.size() + " sessions failed to connect; "
                    + "first: " + firstFailure.getResponseMessage());
        }
        setupFailure = firstFailure;
    }

    @Override
    public final SampleResult runTest(JavaSamplerContext context) {
        String label = label(context);
        if (!configErrors.isEmpty()) {
            return SampleResults.immediateFailure(label, SampleResults.CONFIG_ERROR, String.join("; ", configErrors));
        }
        synchronized (interruptLock) {
            samplingThread = Thread.currentThread();
        }
        try {
            return sample(context, label);
        } catch (InterruptedException e) {
            return SampleResults.immediateFailure(label, SampleResults.INTERRUPTED, "Interrupted: " + this);
        } catch (RuntimeException e) {
            log.warn("{}: sample failed in {}", label, this, e);
            return SampleResults.immediateFailure(label, SampleResults.SAMPLER_ERROR, Failure.describe(e));
        } finally {
            endSampling();
        }
    }

    /**
     * An interrupt we asked for (JMeter's Stop, Shutdown, Sample Timeout) ended this sample: clear it, so the
     * next sample does not fail at once. Any other interrupt stays set for JMeter to see.
     */
    private void endSampling() {
        synchronized (interruptLock) {
            samplingThread = null;
            if (interruptRequested) {
                interruptRequested = false;
                Thread.interrupted();
            }
        }
    }

    @Override
    public void teardownTest(JavaSamplerContext context) {
        if (run != null) {
            // The first teardown waits here for replies in flight while every other session is still open.
            run.leave();
            run = null;
        }
        if (attached) {
            return;
        }
        // JMeter tears every sampler down in one loop: one that threw would leave the rest of the run open.
        for (TimingStompUser user : sessions) {
            try {
                user.close();
            } catch (RuntimeException e) {
                log.warn("Closing {} failed", user, e);
            }
        }
    }

    /**
     * Stop, Shutdown or Sample Timeout from JMeter: whatever this thread waits for (a connect, a reply,
     * messages) ends now as an Interrupted sample, and the sessions close. The next sample reconnects.
     */
    @Override
    public boolean interrupt() {
        synchronized (interruptLock) {
            if (samplingThread != null) {
                interruptRequested = true;
                samplingThread.interrupt();
            }
        }
        TimingRun joined = run;
        if (joined != null) {
            joined.stop();
        }
        for (TimingStompUser user : sessions) {
            user.disconnect();
        }
        return true;
    }

    /** The sessions of this thread, in order. */
    protected final List<TimingStompUser> sessions() {
        return sessions;
    }

    /** The session the next message goes out on: round-robin over the thread's sessions. */
    protected final TimingStompUser nextSession() {
        TimingStompUser user = sessions.get(nextSession);
        nextSession = nextSession + 1 == sessions.size() ? 0 : nextSession + 1;
        return user;
    }

    /**
     * Null when the session is up; otherwise the failed (re)connect sample to report. A connect that failed
     * in setupTest is reported by the first sample without a second attempt.
     */
    protected final SampleResult ensureConnected(TimingStompUser user, String label) throws InterruptedException {
        SampleResult failure = setupFailure;
        if (failure != null) {
            setupFailure = null;
            return failure;
        }
        if (user.isConnected()) {
            return null;
        }
        SampleResult reconnect = connectSample(user, label + (user.everConnected() ? " reconnect" : " connect"));
        return reconnect.isSuccessful() ? null : reconnect;
    }

    /** Login steps, STOMP connect and subscribes as one sample with a sub-result per step. */
    protected final SampleResult connectSample(TimingStompUser user, String label) throws InterruptedException {
        paceConnect();
        SampleResult result = SampleResults.newResult(label);
        result.sampleStart();
        try {
            for (StepResult step : user.login()) {
                SampleResults.addStep(result, step);
                if (!step.ok()) {
                    SampleResults.fail(result, step.code(), step.label() + " failed: " + step.message());
                    return result;
                }
            }
            StepResult connect = user.connect();
            result.connectEnd();
            result.latencyEnd();
            SampleResults.addStep(result, connect);
            if (!connect.ok()) {
                SampleResults.fail(result, connect.code(), connect.message());
                return result;
            }
            List<String> destinations = subscriptionsOf(user);
            for (String destination : destinations) {
                StepResult subscribe = user.subscribe(destination);
                SampleResults.addStep(result, subscribe);
                if (!subscribe.ok()) {
                    SampleResults.fail(result, subscribe.code(), subscribe.message());
                    return result;
                }
            }
            SampleResults.ok(result, "Connected " + user + (destinations.isEmpty() ? "" : ", subscribed to "
                    + destinations));
            return result;
        } finally {
            result.sampleEnd();
        }
    }

    private List<String> subscriptionsOf(TimingStompUser user) {
        if (subscribeTo.isEmpty()) {
            return subscribeTo;
        }
        UserSettings settings = user.settings();
        return subscribeTo.stream().map(d -> SessionNames.expand(d, settings.session(), settings.threadNumber(),
                settings.name())).toList();
    }

    /** Holds connects to {@code connectsPerSecond}; the wait is outside any sample's time. */
    private void paceConnect() throws InterruptedException {
        if (connectIntervalNanos == 0) {
            return;
        }
        long wait = nextConnectNanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        nextConnectNanos = Math.max(nextConnectNanos, System.nanoTime() - connectIntervalNanos) + connectIntervalNanos;
    }

    /** The {@code replyIdPattern} parameter: a regex with a group around the id, or null when empty. */
    static Pattern readPattern(ParameterReader params) {
        String regex = params.optional(REPLY_ID_PATTERN, "");
        if (regex.isEmpty()) {
            return null;
        }
        try {
            Pattern pattern = Pattern.compile(regex);
            if (pattern.matcher("").groupCount() < 1) {
                params.error(REPLY_ID_PATTERN, regex, "needs a capturing group (...) around the id");
                return null;
            }
            return pattern;
        } catch (PatternSyntaxException e) {
            params.error(REPLY_ID_PATTERN, regex, "not a regular expression: " + e.getDescription());
            return null;
        }
    }

    static void checkPlaceholders(ParameterReader params, String name, String value, Set<String> known) {
        try {
            SessionNames.check(value, known);
        } catch (IllegalArgumentException e) {
            params.error(name, value, e.getMessage());
        }
    }

    static String label(JavaSamplerContext context) {
        String name = context.getParameter(TestElement.NAME, "");
        return name == null || name.isEmpty() ? "STOMP" : name;
    }

    /**
     * The thread's virtual users. Credentials three ways: one {@code login} for every user; a login with
     * {@code {{session}}} for unique generated names; or a {@code users} file with a line per user.
     */
    private static List<UserSettings> readUsers(ParameterReader params) {
        String scheme = params.string(SCHEME, SCHEME_DEFAULT).trim().toLowerCase();
        if (!scheme.equals("http") && !scheme.equals("https")) {
            params.error(SCHEME, scheme, "expected http or https");
        }
        String host = params.required(HOST, HOST_DEFAULT);
        int port = params.integer(PORT, Integer.parseInt(PORT_DEFAULT), 1, 65535);
        String endpoint = params.required(ENDPOINT, ENDPOINT_DEFAULT);
        Transport transport = params.parsed(TRANSPORT, TRANSPORT_DEFAULT, Transport::fromParameter, null);
        Map<String, String> connectHeaders = params.parsed(CONNECT_HEADERS, "", HeaderList::parse, Map.of());
        long heartbeat = params.number(HEARTBEAT_MILLIS, Long.parseLong(HEARTBEAT_MILLIS_DEFAULT), 0,
                Integer.MAX_VALUE);
        long connectTimeout = params.number(CONNECT_TIMEOUT_MILLIS, Long.parseLong(CONNECT_TIMEOUT_MILLIS_DEFAULT),
                1, Integer.MAX_VALUE);
        int perThread = params.integer(SESSIONS_PER_THREAD, 1, 1, MAX_SESSIONS_PER_THREAD);
        String login = params.optional(LOGIN, "").trim();
        checkPlaceholders(params, LOGIN, login, SessionNames.LOGIN_PLACEHOLDERS);
        String passcode = params.optional(PASSCODE, "");
        String usersPath = params.optional(USERS, "").trim();
        UsersFile usersFile = null;
        if (!usersPath.isEmpty()) {
            try {
                usersFile = UsersFile.load(Path.of(usersPath));
            } catch (IllegalArgumentException e) {
                params.error(USERS, usersPath, e.getMessage());
            }
        }
        String indexPath = params.optional(INDEX_PATH, INDEX_PATH_DEFAULT);
        String pullPath = params.optional(PULL_PATH, PULL_PATH_DEFAULT);
        if (params.hasErrors() || transport == null) {
            return null;
        }
        JMeterContext jmeter = JMeterContextService.getContext();
        int thread = jmeter.getThreadNum() + 1;
        String threadName = jmeter.getThread() != null ? jmeter.getThread().getThreadName()
                : Thread.currentThread().getName();
        UserSettings base = new UserSettings(threadName, thread, thread, scheme, host, port, endpoint, transport,
                indexPath, pullPath, "", "", connectHeaders, heartbeat, connectTimeout);
        try {
            // A host or path that makes no URL fails here, once, not as an exception in every connect.
            base.stompUri();
            base.httpUri(indexPath.isEmpty() ? "/" : indexPath);
            base.httpUri(pullPath.isEmpty() ? "/" : pullPath);
        } catch (IllegalArgumentException e) {
            params.error(HOST + "/" + ENDPOINT + "/" + INDEX_PATH + "/" + PULL_PATH, host + " " + endpoint + " "
                    + indexPath + " " + pullPath, "do not make a URL: " + e.getMessage());
            return null;
        }
        List<UserSettings> users = new ArrayList<>(perThread);
        for (int k = 1; k <= perThread; k++) {
            int session = (thread - 1) * perThread + k;
            String userLogin = usersFile != null ? usersFile.user(session).login()
                    : SessionNames.expand(login, session, thread, "");
            String userPasscode = usersFile != null && !usersFile.user(session).passcode().isEmpty()
                    ? usersFile.user(session).passcode() : passcode;
            // Timing logs and {{user}} name a user by its login, else by its thread (and place in it).
            String name = !userLogin.isEmpty() ? userLogin : perThread == 1 ? threadName : threadName + "#" + k;
            users.add(base.forUser(name, session, userLogin, userPasscode));
        }
        return users;
    }

    static List<String> splitDestinations(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** JMeter properties, so one -J on the command line sizes the shared clients of a whole run. */
    private static ClientSettings clientSettings(ParameterReader params) {
        ClientSettings defaults = ClientSettings.defaults();
        int connectThreads = intProperty(params, "connectThreads", defaults.connectThreads());
        int heartbeatThreads = intProperty(params, "heartbeatThreads", defaults.heartbeatThreads());
        int maxTextChars = intProperty(params, "maxTextMessageChars", defaults.maxTextMessageChars());
        int maxMessageBytes = intProperty(params, "maxMessageBytes", defaults.maxMessageBytes());
        int sendTimeLimit = intProperty(params, "sendTimeLimitMillis", defaults.sendTimeLimitMillis());
        int ioBuffer = intProperty(params, "ioBufferBytes", defaults.ioBufferBytes());
        int ioThreads = intProperty(params, "ioThreads", defaults.ioThreads(), 0);
        if (params.hasErrors()) {
            return defaults;
        }
        return new ClientSettings(connectThreads, heartbeatThreads, maxTextChars, maxMessageBytes, sendTimeLimit,
                ioBuffer, ioThreads);
    }

    private static int intProperty(ParameterReader params, String name, int defaultValue) {
        return intProperty(params, name, defaultValue, 1);
    }

    private static int intProperty(ParameterReader params, String name, int defaultValue, int least) {
        String property = PROPERTY_PREFIX + name;
        String value = JMeterUtils.getJMeterProperties() == null ? null
                : JMeterUtils.getJMeterProperties().getProperty(property);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= least) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        params.problem("JMeter property '" + property + "' has value '" + value + "': expected "
                + (least == 0 ? "a whole number, 0 or more" : "a positive whole number"));
        return defaultValue;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + (sessions.size() == 1 ? sessions.get(0) : sessions.size()
                + " sessions") + "]";
    }
}
