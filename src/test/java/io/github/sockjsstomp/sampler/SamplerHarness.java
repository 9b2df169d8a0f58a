package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.Books;
import io.github.sockjsstomp.timing.Run;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Drives samplers the way JMeter's JavaSampler does: one instance per thread, setupTest inside the thread's
 * first sample, runTest per sample on that thread, then every teardownTest on one engine thread. A send
 * sampler gets the plans' shape: a session sampler before it on its thread, run once per user. The harness
 * joins the run itself, so a test reads the run's books, exactly, after {@link #endTest}.
 */
final class SamplerHarness implements AutoCloseable {

    private final List<ExecutorService> threads = new ArrayList<>();
    /** The sampler a test made for thread i (or added), in order. */
    private final List<Running> primary = new ArrayList<>();
    /** Every sampler in the order they were set up: JMeter's teardown order. */
    private final List<Running> all = new ArrayList<>();

    private final Map<Integer, List<SampleResult>> sessionSamples = new ConcurrentHashMap<>();
    private final Set<Running> setUp = new HashSet<>();
    private final Run run;
    private boolean ended;

    SamplerHarness(int threadCount) {
        for (int i = 0; i < threadCount; i++) {
            threads.add(Executors.newSingleThreadExecutor());
        }
        run = Run.join(0, 0, r -> {});
    }

    /** The sampler's listed parameters with their defaults, then {@code overrides} of those it lists. */
    static JavaSamplerContext context(StompSampler sampler, Map<String, String> overrides) {
        Arguments args = sampler.getDefaultParameters();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.getArgumentCount(); i++) {
            String name = args.getArgument(i).getName();
            values.put(name, overrides.getOrDefault(name, args.getArgument(i).getValue()));
        }
        values.put(
                "TestElement.name",
                overrides.getOrDefault("TestElement.name", sampler.getClass().getSimpleName()));
        Arguments merged = new Arguments();
        values.forEach(merged::addArgument);
        return new JavaSamplerContext(merged);
    }

    /**
     * Starts {@code users} threads; thread i gets a sampler from {@code factory} with {@code overrides.apply(i)}
     * and runs {@code samples} samples. A send sampler's thread first runs a session sampler, given the same
     * overrides, once per user ({@code sessionsPerThread}).
     */
    <S extends StompSampler> List<List<SampleResult>> run(
            int users, Supplier<S> factory, IntFunction<Map<String, String>> overrides, int samples) throws Exception {
        List<Future<List<SampleResult>>> futures = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            S sampler = factory.get();
            Map<String, String> values = overrides.apply(i);
            Running opener = null;
            if (sampler instanceof StompSendSampler) {
                StompConnectSampler session = new StompConnectSampler();
                Map<String, String> named = new HashMap<>(values);
                named.put("TestElement.name", "session");
                opener = new Running(session, context(session, named), i);
                all.add(opener);
            }
            Running running = new Running(sampler, context(sampler, values), i);
            primary.add(running);
            all.add(running);
            int perThread = Integer.parseInt(values.getOrDefault("sessionsPerThread", "1"));
            Running sessions = opener;
            futures.add(thread(i).submit(() -> {
                enterThread(running.thread);
                if (sessions != null) {
                    sessionSamples.put(running.thread, sample(sessions, perThread));
                }
                return sample(running, samples);
            }));
        }
        List<List<SampleResult>> results = new ArrayList<>();
        for (Future<List<SampleResult>> future : futures) {
            results.add(future.get(120, TimeUnit.SECONDS));
        }
        return results;
    }

    private List<SampleResult> sample(Running r, int count) {
        synchronized (setUp) {
            if (setUp.add(r)) {
                r.sampler.setupTest(r.context);
            }
        }
        List<SampleResult> results = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            results.add(r.sampler.runTest(r.context));
        }
        return results;
    }

    private static void enterThread(int threadNum) {
        // As JMeter numbers the threads of a group: {{userNumber}} and {{thread}} come from it.
        JMeterContextService.getContext().setThreadNum(threadNum);
        if (JMeterContextService.getContext().getVariables() == null) {
            JMeterContextService.getContext().setVariables(new JMeterVariables());
        }
    }

    private ExecutorService thread(int index) {
        return threads.get(index);
    }

    /** One more sample of thread {@code index}'s sampler, on that thread. */
    SampleResult sampleAgain(int index) throws Exception {
        Running r = primary.get(index);
        return onThread(r.thread, () -> r.sampler.runTest(r.context));
    }

    /** The session samples that opened thread {@code index}'s users (send samplers only). */
    List<SampleResult> sessionSamples(int index) {
        return sessionSamples.getOrDefault(index, List.of());
    }

    /** Adds a sampler for thread 0 without sampling, as one more element of that thread's plan. */
    int add(StompSampler sampler, JavaSamplerContext context) {
        Running r = new Running(sampler, context, 0);
        primary.add(r);
        all.add(r);
        return primary.size() - 1;
    }

    /** {@code count} samples of an added sampler on its thread; the first ever runs its setupTest first. */
    List<SampleResult> samples(int index, int count) throws Exception {
        Running r = primary.get(index);
        return onThread(r.thread, () -> {
            enterThread(r.thread);
            return sample(r, count);
        });
    }

    /** The users a session sampler made on thread {@code index}. */
    List<VirtualUser> users(int index) throws Exception {
        return onThread(primary.get(index).thread, () -> ThreadUsers.current().users());
    }

    <T> T onThread(int index, Callable<T> task) throws Exception {
        return thread(index).submit(task).get(120, TimeUnit.SECONDS);
    }

    /** Runs on thread 0, the thread of every added sampler. */
    <T> T onThread(Callable<T> task) throws Exception {
        return onThread(0, task);
    }

    StompSampler sampler(int index) {
        return primary.get(index).sampler;
    }

    /** The run's books: exact once {@link #endTest} returned. */
    Books books() {
        return run.books();
    }

    Run testRun() {
        return run;
    }

    /** JMeter's testEnded: every teardownTest, in order, on one thread; then the run ends. */
    void endTest() {
        for (Running r : all) {
            r.sampler.teardownTest(r.context);
        }
        all.clear();
        if (!ended) {
            ended = true;
            run.leave();
        }
    }

    @Override
    public void close() {
        endTest();
        threads.forEach(ExecutorService::shutdownNow);
    }

    private record Running(StompSampler sampler, JavaSamplerContext context, int thread) {}
}
