package io.github.sockjsstomp.sampler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * first sample, runTest per sample on that thread, then every teardownTest on one engine thread.
 */
final class SamplerHarness implements AutoCloseable {

    private final ExecutorService threads;
    private final List<Running> running = new ArrayList<>();
    private final java.util.Set<Integer> setUp = new java.util.HashSet<>();

    SamplerHarness(int threadCount) {
        this.threads = Executors.newFixedThreadPool(threadCount);
    }

    static JavaSamplerContext context(AbstractStompSampler sampler, Map<String, String> overrides) {
        Arguments args = sampler.getDefaultParameters();
        Map<String, String> values = new LinkedHashMap<>();
        if (sampler instanceof StompSendSampler) {
            // Sessions of its own, as in plans that give a send sampler the connection parameters.
            Arguments connection = AbstractStompSampler.connectionParameters(sampler.defaultSubscribeTo());
            for (int i = 0; i < connection.getArgumentCount(); i++) {
                values.put(connection.getArgument(i).getName(), connection.getArgument(i).getValue());
            }
        }
        for (int i = 0; i < args.getArgumentCount(); i++) {
            values.put(args.getArgument(i).getName(), args.getArgument(i).getValue());
        }
        values.putAll(overrides);
        values.put("TestElement.name", overrides.getOrDefault("TestElement.name", sampler.getClass().getSimpleName()));
        Arguments merged = new Arguments();
        values.forEach(merged::addArgument);
        return new JavaSamplerContext(merged);
    }

    /** Starts {@code users} samplers; user i gets {@code overrides.apply(i)} and runs {@code samples} samples. */
    <S extends AbstractStompSampler> List<List<SampleResult>> run(int users, Supplier<S> factory,
            IntFunction<Map<String, String>> overrides, int samples) throws Exception {
        List<Future<List<SampleResult>>> futures = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            S sampler = factory.get();
            JavaSamplerContext context = context(sampler, overrides.apply(i));
            running.add(new Running(sampler, context));
            int threadNum = i;
            futures.add(threads.submit(() -> {
                // As JMeter numbers the threads of a group: {{session}} and {{thread}} come from it.
                JMeterContextService.getContext().setThreadNum(threadNum);
                if (JMeterContextService.getContext().getVariables() == null) {
                    JMeterContextService.getContext().setVariables(new JMeterVariables());
                }
                sampler.setupTest(context);
                List<SampleResult> results = new ArrayList<>();
                for (int n = 0; n < samples; n++) {
                    results.add(sampler.runTest(context));
                }
                return results;
            }));
        }
        List<List<SampleResult>> all = new ArrayList<>();
        for (Future<List<SampleResult>> future : futures) {
            all.add(future.get(120, TimeUnit.SECONDS));
        }
        return all;
    }

    /** One more sample on an already started sampler, on a pool thread. */
    SampleResult sampleAgain(int index) throws Exception {
        Running r = running.get(index);
        return threads.submit(() -> {
            JMeterContextService.getContext().setThreadNum(index);
            return r.sampler.runTest(r.context);
        }).get(120, TimeUnit.SECONDS);
    }

    /** A sampler given only the parameters listed and {@code overrides}: a send sampler without connection ones. */
    static JavaSamplerContext ownContext(AbstractStompSampler sampler, Map<String, String> overrides) {
        Arguments args = sampler.getDefaultParameters();
        Arguments merged = new Arguments();
        for (int i = 0; i < args.getArgumentCount(); i++) {
            String name = args.getArgument(i).getName();
            merged.addArgument(name, overrides.getOrDefault(name, args.getArgument(i).getValue()));
        }
        merged.addArgument("TestElement.name", overrides.getOrDefault("TestElement.name",
                sampler.getClass().getSimpleName()));
        return new JavaSamplerContext(merged);
    }

    /** Adds a sampler to the test without sampling; returns its index for {@link #samples}. */
    int add(AbstractStompSampler sampler, JavaSamplerContext context) {
        running.add(new Running(sampler, context));
        return running.size() - 1;
    }

    /**
     * {@code count} samples of an added sampler on a pool thread (with one thread, the thread every sampler
     * of the harness samples on, as in one JMeter thread); the first ever runs its setupTest first.
     */
    List<SampleResult> samples(int index, int count) throws Exception {
        Running r = running.get(index);
        return onThread(() -> {
            JMeterContextService.getContext().setThreadNum(0);
            if (JMeterContextService.getContext().getVariables() == null) {
                JMeterContextService.getContext().setVariables(new JMeterVariables());
            }
            if (setUp.add(index)) {
                r.sampler.setupTest(r.context);
            }
            List<SampleResult> results = new ArrayList<>();
            for (int n = 0; n < count; n++) {
                results.add(r.sampler.runTest(r.context));
            }
            return results;
        });
    }

    /** Runs on a pool thread: with one thread, the thread of every sample, so its JMeter variables too. */
    <T> T onThread(java.util.concurrent.Callable<T> task) throws Exception {
        return threads.submit(task).get(120, TimeUnit.SECONDS);
    }

    AbstractStompSampler sampler(int index) {
        return running.get(index).sampler;
    }

    /** JMeter's testEnded: every teardownTest, in order, on one thread. */
    void endTest() {
        for (Running r : running) {
            r.sampler.teardownTest(r.context);
        }
        running.clear();
        setUp.clear();
    }

    @Override
    public void close() {
        endTest();
        threads.shutdownNow();
    }

    private record Running(AbstractStompSampler sampler, JavaSamplerContext context) {
    }
}
