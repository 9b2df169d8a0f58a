package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.*;

import io.github.sockjsstomp.client.ClientSettings;
import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.client.HeaderList;
import io.github.sockjsstomp.client.SharedStompClients;
import io.github.sockjsstomp.client.StepResult;
import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.timing.ReplyTracker;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingRun;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.TimingStompUser;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * <p>The constructor and static state stay free of Spring: JMeter's GUI instantiates samplers to list them.
 */
public abstract class AbstractStompSampler extends AbstractJavaSamplerClient implements Interruptible {

    private static final Logger log = LoggerFactory.getLogger(AbstractStompSampler.class);

    /** The user of this thread, or null when the configuration was refused. */
    protected TimingStompUser user;
    private List<String> configErrors = List.of();
    private List<String> subscribeTo = List.of();
    private boolean inRun;
    private boolean wasConnected;
    private long drainMillis;
    /** The outcome of a connect made in setupTest, reported by the first sample if it failed. */
    private SampleResult setupFailure;

    @Override
    public Arguments getDefaultParameters() {
        Arguments args = new Arguments();
        args.addArgument(SCHEME, SCHEME_DEFAULT, null, "http or https");
        args.addArgument(HOST, HOST_DEFAULT);
        args.addArgument(PORT, PORT_DEFAULT);
        args.addArgument(ENDPOINT, ENDPOINT_DEFAULT, null, "SockJS endpoint path, or WebSocket path for raw");
        args.addArgument(TRANSPORT, TRANSPORT_DEFAULT, null, Transport.allowedValues());
        args.addArgument(INDEX_PATH, INDEX_PATH_DEFAULT, null, "GET before connecting; empty skips it");
        args.addArgument(PULL_PATH, PULL_PATH_DEFAULT, null, "GET after the index; empty skips it");
        args.addArgument(LOGIN, "", null, "STOMP login; also the user's name (else the thread name)");
        args.addArgument(PASSCODE, "");
        args.addArgument(CONNECT_HEADERS, "", null, "extra CONNECT headers: name:value;name2:value2");
        args.addArgument(HEARTBEAT_MILLIS, HEARTBEAT_MILLIS_DEFAULT, null, "STOMP heart-beat both ways; 0 = off");
        args.addArgument(CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS_DEFAULT);
        args.addArgument(SUBSCRIBE_TO, defaultSubscribeTo(), null, "destinations, comma-separated");
        addParameters(args);
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

    /** Send and receive samplers connect in setupTest; the connect sampler makes connecting its sample. */
    protected boolean connectsInSetup() {
        return true;
    }

    protected TimingStompUser createUser(SharedStompClients shared, UserSettings settings, TimingOptions timing,
            TimingSink sink) {
        return new TimingStompUser(shared, settings, ReplyTracker.shared(), timing, sink);
    }

    /** One sample; the user is set up. May throw InterruptedException; other failures become results. */
    protected abstract SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException;

    @Override
    public final void setupTest(JavaSamplerContext context) {
        String label = label(context);
        ParameterReader params = new ParameterReader(context);
        UserSettings settings = readUserSettings(params);
        subscribeTo = splitDestinations(params.string(SUBSCRIBE_TO, defaultSubscribeTo()));
        TimingOptions timing = readParameters(params);
        ClientSettings clientSettings = clientSettings(params);
        TimingSink sink = params.hasErrors() ? TimingSink.NONE : openTimingSink(params);
        if (params.hasErrors() || settings == null || timing == null) {
            configErrors = params.hasErrors() ? params.errors() : List.of("Invalid configuration");
            log.error("{}: configuration refused: {}", label, configErrors);
            return;
        }
        user = createUser(SharedStompClients.get(clientSettings), settings, timing, sink);
        drainMillis = timing.replyTimeoutMillis() + 1000;
        TimingRun.enter();
        inRun = true;
        if (connectsInSetup()) {
            try {
                SampleResult connected = connectSample(label + " connect");
                setupFailure = connected.isSuccessful() ? null : connected;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                setupFailure = SampleResults.immediateFailure(label, SampleResults.INTERRUPTED,
                        "Interrupted while connecting");
            }
        }
    }

    @Override
    public final SampleResult runTest(JavaSamplerContext context) {
        String label = label(context);
        if (!configErrors.isEmpty()) {
            return SampleResults.immediateFailure(label, SampleResults.CONFIG_ERROR, String.join("; ", configErrors));
        }
        try {
            return sample(context, label);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return SampleResults.immediateFailure(label, SampleResults.INTERRUPTED, "Interrupted: " + user);
        } catch (RuntimeException e) {
            log.warn("{}: sample failed in {}", label, user, e);
            return SampleResults.immediateFailure(label, SampleResults.SAMPLER_ERROR, Failure.describe(e));
        }
    }

    @Override
    public void teardownTest(JavaSamplerContext context) {
        if (inRun) {
            inRun = false;
            // The first teardown waits here for replies in flight while every other session is still open.
            TimingRun.exit(drainMillis);
        }
        if (user != null) {
            user.close();
        }
    }

    /** Stop/Shutdown from JMeter: close the session so a waiting sample ends now. */
    @Override
    public boolean interrupt() {
        TimingStompUser current = user;
        if (current != null) {
            current.disconnect();
        }
        return true;
    }

    /**
     * Null when the session is up; otherwise the failed (re)connect sample to report. A connect that failed
     * in setupTest is reported by the first sample without a second attempt.
     */
    protected final SampleResult ensureConnected(String label) throws InterruptedException {
        SampleResult failure = setupFailure;
        if (failure != null) {
            setupFailure = null;
            return failure;
        }
        if (user.isConnected()) {
            return null;
        }
        SampleResult reconnect = connectSample(label + (wasConnected ? " reconnect" : " connect"));
        return reconnect.isSuccessful() ? null : reconnect;
    }

    /** Login steps, STOMP connect and subscribes as one sample with a sub-result per step. */
    protected final SampleResult connectSample(String label) throws InterruptedException {
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
            for (String destination : subscribeTo) {
                StepResult subscribe = user.subscribe(destination);
                SampleResults.addStep(result, subscribe);
                if (!subscribe.ok()) {
                    SampleResults.fail(result, subscribe.code(), subscribe.message());
                    return result;
                }
            }
            wasConnected = true;
            SampleResults.ok(result, "Connected " + user + (subscribeTo.isEmpty() ? "" : ", subscribed to "
                    + subscribeTo));
            return result;
        } finally {
            result.sampleEnd();
        }
    }

    protected final boolean wasConnected() {
        return wasConnected;
    }

    protected final void forgetConnection() {
        wasConnected = false;
    }

    /** The {@code replyIdPattern} parameter: a regex with a group around the id, or null when empty. */
    static Pattern readPattern(ParameterReader params) {
        String regex = params.string(REPLY_ID_PATTERN, "");
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

    static String label(JavaSamplerContext context) {
        String name = context.getParameter(TestElement.NAME, "");
        return name == null || name.isEmpty() ? "STOMP" : name;
    }

    private static UserSettings readUserSettings(ParameterReader params) {
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
        String login = params.string(LOGIN, "").trim();
        if (params.hasErrors() || transport == null) {
            return null;
        }
        JMeterContext jmeter = JMeterContextService.getContext();
        String name = !login.isEmpty() ? login
                : jmeter.getThread() != null ? jmeter.getThread().getThreadName() : Thread.currentThread().getName();
        return new UserSettings(name, jmeter.getThreadNum() + 1, scheme, host, port, endpoint, transport,
                params.string(INDEX_PATH, INDEX_PATH_DEFAULT), params.string(PULL_PATH, PULL_PATH_DEFAULT), login,
                params.string(PASSCODE, ""), connectHeaders, heartbeat, connectTimeout);
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
        int sendBuffer = intProperty(params, "sendBufferBytes", defaults.sendBufferBytes());
        if (params.hasErrors()) {
            return defaults;
        }
        return new ClientSettings(connectThreads, heartbeatThreads, maxTextChars, maxMessageBytes, sendTimeLimit,
                sendBuffer);
    }

    private static int intProperty(ParameterReader params, String name, int defaultValue) {
        String property = PROPERTY_PREFIX + name;
        String value = JMeterUtils.getJMeterProperties() == null ? null
                : JMeterUtils.getJMeterProperties().getProperty(property);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        params.problem("JMeter property '" + property + "' has value '" + value + "': expected a positive whole number");
        return defaultValue;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + user + "]";
    }
}
