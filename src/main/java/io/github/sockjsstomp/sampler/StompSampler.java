package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.Failure;
import io.github.sockjsstomp.samples.RunReports;
import io.github.sockjsstomp.samples.Sample;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.Run;
import java.util.List;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every sampler of the plugin shares, as JMeter's Java sampler lifecycle has it: one instance per thread;
 * {@link #setupTest} inside the thread's first sample reads and checks the parameters; {@link #runTest} per
 * sample; {@link #teardownTest} on the engine thread once all threads have stopped. A subclass says which
 * parameters it has, sets itself up from them ({@link #setUp}) and takes a sample ({@link #sample});
 * the run it joined and the users it owns are left and closed here. Nothing escapes runTest.
 *
 * <p>A bad parameter is reported once, as a ConfigError sample naming the parameter and the value, and the test
 * stops: every thread has the same parameters, so every thread would fail alike, and a loop of failed samples
 * would tell the user nothing more.
 *
 * <p>The constructor and static state stay free of Spring: JMeter's GUI instantiates samplers to list them.
 */
public abstract class StompSampler extends AbstractJavaSamplerClient implements Interruptible {

    private static final Logger log = LoggerFactory.getLogger(StompSampler.class);

    private final List<Parameter<?>> parameters;
    private String label = "STOMP";
    private List<String> configErrors = List.of();
    /** Where setUp's problems go while it runs: a run's start adds what it finds in the typed properties. */
    private ParameterReader setupProblems;
    /** The run this sampler joined in setupTest and leaves in teardownTest; null outside one. */
    private Run run;
    /** The users this sampler made: disconnected on Stop, closed in teardownTest. */
    private ThreadUsers owned;
    /** The users this sampler sends on but another made: disconnected on Stop, closed by their owner. */
    private ThreadUsers used;

    private final Object interruptLock = new Object();
    private Thread samplingThread;
    private boolean interruptRequested;

    /** @param parameters the parameters JMeter's panel lists for this sampler, in order */
    protected StompSampler(List<Parameter<?>> parameters) {
        this.parameters = List.copyOf(parameters);
    }

    /** Reads the parameters and builds what the samples need; problems go to {@code params}, not exceptions. */
    protected abstract void setUp(ParameterReader params, String label);

    /** One sample, on the thread's JMeter thread. Timed parts go through {@link Sample#timed}. */
    protected abstract SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException;

    /** Closes what else this sampler holds; on the engine thread, after every thread stopped. */
    protected void tearDown() {}

    /** Makes {@code users} this sampler's: JMeter's Stop disconnects them, teardownTest closes them. */
    protected final ThreadUsers own(ThreadUsers users) {
        owned = users;
        return users;
    }

    /**
     * This sampler sends on {@code users} another sampler made: JMeter interrupts only the sampler that is
     * sampling, so Stop must end their sessions from here (a reply in flight cannot then answer a message
     * the user gave up on); their owner closes them.
     */
    protected final ThreadUsers use(ThreadUsers users) {
        used = users;
        return users;
    }

    /**
     * Joins the run of the current test (in setUp); it is left in teardownTest before {@link #tearDown}, so
     * the first sampler to leave waits for replies in flight while every session is still open.
     *
     * @param drainMillis how long the run's end may wait for this sampler's replies in flight
     */
    protected final Run joinRun(long drainMillis) {
        run = RunReports.join(drainMillis, setupProblems != null ? setupProblems : new ParameterReader(null));
        return run;
    }

    @Override
    public final Arguments getDefaultParameters() {
        Arguments args = new Arguments();
        for (Parameter<?> parameter : parameters) {
            args.addArgument(parameter.name, parameter.defaultText, null, parameter.description);
        }
        return args;
    }

    @Override
    public final void setupTest(JavaSamplerContext context) {
        label = label(context);
        ParameterReader params = new ParameterReader(context);
        setupProblems = params;
        try {
            params.refuseRenamed(parameters);
            setUp(params, label);
        } finally {
            setupProblems = null;
        }
        if (params.hasErrors()) {
            configErrors = params.errors();
            log.error("{}: configuration refused, the test stops: {}", label, configErrors);
        }
    }

    @Override
    public final SampleResult runTest(JavaSamplerContext context) {
        if (!configErrors.isEmpty()) {
            return Sample.configError(label, String.join("; ", configErrors));
        }
        synchronized (interruptLock) {
            samplingThread = Thread.currentThread();
        }
        try {
            return sample(context, label);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Sample.failedAtOnce(label, Sample.INTERRUPTED, "Interrupted: " + this);
        } catch (RuntimeException e) {
            log.warn("{}: sample failed in {}", label, this, e);
            return Sample.failedAtOnce(label, Sample.SAMPLER_ERROR, Failure.describe(e));
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
    public final void teardownTest(JavaSamplerContext context) {
        try {
            Run joined = run;
            run = null;
            if (joined != null) {
                // the first sampler to leave waits for replies in flight while every session is still open
                joined.awaitReplies();
            }
            if (owned != null) {
                // before the run's end: the consumers' last ACKs go before DISCONNECT and into the run's counts
                owned.close();
            }
            if (joined != null) {
                joined.leave();
            }
            tearDown();
        } catch (RuntimeException e) {
            // JMeter tears every sampler down in one loop: one that threw would leave the rest of the run open.
            log.warn("{}: teardown failed", this, e);
        }
    }

    @Override
    public final boolean interrupt() {
        synchronized (interruptLock) {
            if (samplingThread != null) {
                interruptRequested = true;
                samplingThread.interrupt();
            }
        }
        Run joined = run;
        if (joined != null) {
            joined.stop();
        }
        for (ThreadUsers users : new ThreadUsers[] {owned, used}) {
            if (users != null) {
                users.disconnect();
            }
        }
        return true;
    }

    static String label(JavaSamplerContext context) {
        String name = context.getParameter(TestElement.NAME, "");
        return name == null || name.isEmpty() ? "STOMP" : name;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + label + "]";
    }
}
