package io.github.sockjsstomp.steps;

import io.github.sockjsstomp.timing.CapacityBook;
import io.github.sockjsstomp.timing.ExpectedUsers;
import io.github.sockjsstomp.timing.StepOffer;
import io.github.sockjsstomp.timing.StepWindows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleConsumer;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of one run on this engine: the offer at any time (what the senders and session samplers follow),
 * and, on a thread of its own, each step's hold opened and closed on the steps' clock, its figures gathered once
 * its messages have settled (its end + {@code settleMillis}), its verdict written to the steps log and told.
 * When a step breaks and the user asked to stop ({@code stopOnBreak}), the offer drops to 0 at the end of the
 * NEXT step (it confirms the figure); after the last step (or that one) settles, the answer is told and the test
 * is stopped. Boundaries are offsets from a start on the epoch clock, so engines given one start stay aligned.
 */
public final class Stepper implements StepOffer {

    private static final Logger log = LoggerFactory.getLogger(Stepper.class);

    /**
     * @param start when step 1's ramp begins: a fixed time, or once this engine's users are online
     * @param settleMillis how long after a hold its last messages may still get their outcome (the reply timeout
     *     and the sweep)
     */
    public record Settings(
            StepPlan plan,
            StepsStart start,
            ServiceLevel level,
            GeneratorCheck check,
            boolean stopOnBreak,
            long settleMillis,
            String ioThreadPrefix) {}

    private final Settings settings;
    private final StepWindows windows;
    private final CapacityBook capacity;
    private final ExpectedUsers expected;
    private final Supplier<GeneratorQueues> queues;
    private final StepsLog stepsLog;
    private final StepListener listener;
    private final Runnable stopTest;
    private final CpuMeter cpu = new CpuMeter();
    private final MachineCpu machine = new MachineCpu();
    private final IoLanes ioLanes;
    /** The scheduled senders' lag behind schedule, microseconds, per wake-up. */
    private final Recorder lag = new Recorder(3);

    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "stomp-steps");
        thread.setDaemon(true);
        return thread;
    });
    private final StepState[] steps;
    /**
     * Each step's books, opened a step ahead of its hold (step 1's when the steps begin): a window counts the outcomes
     * that come while it is open, so one opened at its hold's start by a clock that woke late (a loaded machine) would
     * miss the messages sent from that start and answered before it opened. Which messages are the hold's is the
     * window's own test, by their send time.
     */
    private final StepWindows.Window[] opened;

    private final List<StepFigures> ended = new ArrayList<>();
    private final List<Verdict> verdicts = new ArrayList<>();
    /** When step 1's ramp begins; until steps that begin online do, never (the offer is 0). */
    private volatile long startEpochMs = Long.MAX_VALUE;

    private volatile ScheduledFuture<?> waitingForUsers;

    /** From this epoch time on the offer is 0: the steps are over or stopped. */
    private volatile long stopOfferingEpochMs = Long.MAX_VALUE;

    /** The longest tick of the senders that follow the steps: their lag within two ticks is their schedule. */
    private volatile long longestTickMillis;

    private int stopAfterStep;
    private boolean over;

    public Stepper(
            Settings settings,
            StepWindows windows,
            CapacityBook capacity,
            ExpectedUsers expected,
            Supplier<GeneratorQueues> queues,
            StepsLog stepsLog,
            StepListener listener,
            Runnable stopTest) {
        this.settings = settings;
        this.windows = windows;
        this.capacity = capacity;
        this.expected = expected;
        this.queues = queues;
        this.stepsLog = stepsLog;
        this.listener = listener;
        this.stopTest = stopTest;
        this.steps = new StepState[settings.plan().count() + 1];
        this.opened = new StepWindows.Window[settings.plan().count() + 1];
        this.ioLanes = new IoLanes(settings.ioThreadPrefix());
    }

    /**
     * Schedules every step's hold, end and settling on the steps' clock; for steps that begin online, once the
     * users are (asked every 100 ms on the steps' clock). Either way the beginning is told with the users online.
     */
    public void start() {
        OnlineGate gate = new OnlineGate(settings.start(), StepsStart.STALL_MILLIS);
        if (!settings.start().online()) {
            begin(settings.start().epochMs());
            at(0, () -> listener.begun(gate.online(System.currentTimeMillis(), capacity.held(), expected.total())));
            return;
        }
        waitingForUsers = clock.scheduleWithFixedDelay(
                () -> {
                    long now = System.currentTimeMillis();
                    String begunLine =
                            startEpochMs == Long.MAX_VALUE ? gate.check(now, capacity.held(), expected.total()) : null;
                    if (begunLine != null) {
                        begin(now);
                        waitingForUsers.cancel(false);
                        listener.begun(begunLine);
                    }
                },
                100,
                100,
                TimeUnit.MILLISECONDS);
    }

    private void begin(long epochMs) {
        startEpochMs = epochMs;
        StepPlan plan = settings.plan();
        synchronized (this) {
            window(1);
        }
        for (int step = 1; step <= plan.count(); step++) {
            int k = step;
            at(plan.holdStartOffset(k), () -> beginHold(k));
            at(plan.endOffset(k), () -> endHold(k, plan.endOffset(k) + startEpochMs));
        }
    }

    private void at(long offsetMillis, Runnable task) {
        long delay = startEpochMs + offsetMillis - System.currentTimeMillis();
        clock.schedule(
                () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        log.error("A step's task failed", e);
                    }
                },
                Math.max(0, delay),
                TimeUnit.MILLISECONDS);
    }

    public Settings settings() {
        return settings;
    }

    /** What the steps read of the whole machine's CPU, said once at the start. */
    public String machineWords() {
        return machine.readable()
                ? "the machine's CPU read from " + MachineCpu.PROC_STAT + " (" + machine.cores() + " cores)"
                : "the machine's CPU not read (no " + MachineCpu.PROC_STAT + "): a machine that other work filled is "
                        + "not told from a server at its limit";
    }

    @Override
    public String kind() {
        return settings.plan().kind().parameter;
    }

    /** What this engine offers at {@code epochMs}: 0 before the first step, after the last, and once stopped. */
    @Override
    public double offeredAt(long epochMs) {
        if (epochMs >= stopOfferingEpochMs) {
            return 0;
        }
        return settings.plan().offeredAt(epochMs - startEpochMs);
    }

    /** When the offer next changes by a step's boundary after {@code epochMs} (or by the stop). */
    @Override
    public long nextChangeEpochMs(long epochMs) {
        long offset = settings.plan().nextBoundary(epochMs - startEpochMs);
        long next = offset == Long.MAX_VALUE ? Long.MAX_VALUE : startEpochMs + offset;
        return Math.min(next, stopOfferingEpochMs > epochMs ? stopOfferingEpochMs : Long.MAX_VALUE);
    }

    /** Whether a step's ramp is under way at {@code epochMs} (the offer moves continuously). */
    @Override
    public boolean ramping(long epochMs) {
        StepPlan plan = settings.plan();
        long offset = epochMs - startEpochMs;
        int step = plan.stepAt(offset);
        return step >= 1
                && step <= plan.count()
                && offset < plan.holdStartOffset(step)
                && epochMs < stopOfferingEpochMs;
    }

    /**
     * Tells {@code offer} the offer every {@code everyMillis} on the steps' clock, from now until the steps are
     * over (then 0): for what follows the steps without a thread of its own to look (the consumers' time per message,
     * read by each consumer as a message comes). A ramp moves it in as many small changes.
     */
    public void tellOffer(long everyMillis, DoubleConsumer offer) {
        clock.scheduleAtFixedRate(
                () -> offer.accept(offeredAt(System.currentTimeMillis())), 0, everyMillis, TimeUnit.MILLISECONDS);
    }

    /** A scheduled sender following the steps wakes at most once per {@code tickMillis}. */
    @Override
    public void senderTick(long tickMillis) {
        longestTickMillis = Math.max(longestTickMillis, tickMillis);
    }

    /** A scheduled sender's wake-up, {@code lagNanos} behind its schedule (negative: early). */
    @Override
    public void sendLag(long lagNanos) {
        lag.recordValue(Math.max(0, lagNanos / 1000));
    }

    private synchronized void beginHold(int step) {
        StepPlan plan = settings.plan();
        long holdStart = startEpochMs + plan.holdStartOffset(step);
        if (over || steps[step] != null || holdStart >= stopOfferingEpochMs) {
            return;
        }
        lag.reset();
        steps[step] = new StepState(window(step), holdStart, cpu.mark());
        if (step < plan.count()) {
            window(step + 1);
        }
        steps[step].machineMark = machine.mark();
        steps[step].queuesAtStart = queues.get();
        steps[step].ioLaneMark = ioLanes.mark();
    }

    /** Step {@code step}'s books, opened now if they are not yet. */
    private StepWindows.Window window(int step) {
        if (opened[step] == null) {
            StepPlan plan = settings.plan();
            opened[step] = windows.open(startEpochMs + plan.holdStartOffset(step), startEpochMs + plan.endOffset(step));
        }
        return opened[step];
    }

    private synchronized void endHold(int step, long endEpochMs) {
        StepState state = steps[step];
        if (over || state == null || state.endEpochMs != 0) {
            return;
        }
        state.endEpochMs = endEpochMs;
        state.cpu = cpu.since(state.cpuMark);
        state.machineCpu = machine.since(state.machineMark);
        Histogram lags = lag.getIntervalHistogram();
        state.lagP99Millis = lags.getTotalCount() == 0 ? null : lags.getValueAtPercentile(99) / 1000.0;
        state.users = (int) capacity.held();
        state.queuesAtEnd = queues.get().withBusiestIoLane(ioLanes.busiestSince(state.ioLaneMark));
        if (step == settings.plan().count() || step == stopAfterStep) {
            stopOffering(endEpochMs);
        }
        if (!clock.isShutdown()) {
            clock.schedule(() -> settle(step), settings.settleMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void settle(int step) {
        if (over) {
            return;
        }
        write(step);
        Verdict verdict = verdicts.get(verdicts.size() - 1);
        if (verdict.broke() && settings.stopOnBreak() && stopAfterStep == 0) {
            stopAfterStep = step + 1;
            StepState next = step < settings.plan().count() ? steps[step + 1] : null;
            if (next != null && next.endEpochMs != 0) {
                // its verdict came after the next step ended (a reply timeout longer than a step): stop now
                stopOffering(System.currentTimeMillis());
            }
            log.info("Step {} broke: the steps stop after step {}", step, stopAfterStep);
        }
        if (step == settings.plan().count() || step >= stopAfterStep && stopAfterStep > 0 && allEndedSettled()) {
            answer();
            stopTest.run();
        }
    }

    /** Every step begun has been written: nothing left to wait for once the offer is 0. */
    private boolean allEndedSettled() {
        for (int k = 1; k < steps.length; k++) {
            if (steps[k] != null && !steps[k].written) {
                return false;
            }
        }
        return stopOfferingEpochMs != Long.MAX_VALUE;
    }

    /** The offer drops to 0 now; a step under way ends here, and is settled as the others are. */
    private void stopOffering(long epochMs) {
        if (stopOfferingEpochMs != Long.MAX_VALUE) {
            return;
        }
        stopOfferingEpochMs = epochMs;
        for (int k = 1; k < steps.length; k++) {
            StepState state = steps[k];
            if (state != null && state.endEpochMs == 0) {
                endHold(k, epochMs);
            } else if (state == null && opened[k] != null) {
                // opened ahead for a hold that will not come
                windows.close(opened[k]);
            }
        }
    }

    private void write(int step) {
        StepState state = steps[step];
        StepWindows.Window window = state.window;
        windows.close(window);
        state.written = true;
        StepFigures figures = figures(step, state);
        Verdict verdict = Verdict.of(
                figures,
                settings.level(),
                settings.check().forTick(longestTickMillis),
                cpu.cores(),
                machine.cores(),
                state.queuesAtStart,
                state.queuesAtEnd);
        ended.add(figures);
        verdicts.add(verdict);
        try {
            stepsLog.write(figures, verdict);
        } catch (IOException e) {
            log.error("The steps log {} cannot be written", stepsLog.path(), e);
        }
        listener.stepEnded(
                figures,
                verdict,
                CapacityAnswer.stepLine(figures, verdict, settings.plan().count()));
    }

    private StepFigures figures(int step, StepState state) {
        StepPlan plan = settings.plan();
        StepWindows.Window window = state.window;
        long sent = window.sent();
        Histogram latency = window.latency();
        Histogram connectMicros = window.connectMicros();
        double holdSeconds = Math.max(1, state.endEpochMs - state.holdStartEpochMs) / 1000.0;
        boolean hasLatency = latency.getTotalCount() > 0;
        double achieved = switch (plan.kind()) {
            case RATE, CONSUME -> window.answered() / holdSeconds;
            case USERS -> state.users;
            case LOOPING -> Math.min(state.users, plan.offered(step)); // those online of the users it let loop
        };
        return new StepFigures(
                step,
                plan.kind(),
                plan.offered(step),
                startEpochMs + plan.rampStartOffset(step),
                state.holdStartEpochMs,
                state.endEpochMs,
                state.users,
                sent == 0 ? null : sent,
                sent == 0 ? null : window.answered(),
                sent == 0 ? null : window.lost(),
                sent == 0 ? null : window.failed(),
                achieved,
                hasLatency ? latency.getValueAtPercentile(50) : null,
                hasLatency ? latency.getValueAtPercentile(99) : null,
                hasLatency ? latency.getValueAtPercentile(99.9) : null,
                state.lagP99Millis,
                state.cpu,
                state.machineCpu,
                window.connects(),
                window.connectFailed(),
                connectMicros.getTotalCount() == 0 ? null : Math.round(connectMicros.getValueAtPercentile(99) / 1000.0),
                window.heartbeatMisses());
    }

    private void answer() {
        if (over) {
            return;
        }
        over = true;
        clock.shutdownNow();
        String line = CapacityAnswer.line(ended, verdicts);
        log.info(line);
        listener.answered(line);
    }

    /**
     * The run ended (every message has its outcome): a step still under way ends now, every step begun and not
     * written is written with its figures as far as they got, and the answer is told if it was not.
     */
    public synchronized void finish() {
        if (over) {
            closeLog();
            return;
        }
        clock.shutdownNow();
        long now = System.currentTimeMillis();
        for (int k = 1; k < steps.length; k++) {
            StepState state = steps[k];
            if (state != null && state.endEpochMs == 0) {
                endHold(k, Math.min(now, startEpochMs + settings.plan().endOffset(k)));
            }
            if (state != null && !state.written) {
                write(k);
            }
        }
        answer();
        closeLog();
    }

    private void closeLog() {
        try {
            stepsLog.close();
        } catch (IOException e) {
            log.warn("Closing the steps log {}", stepsLog.path(), e);
        }
    }

    @Override
    public String toString() {
        return "Stepper[" + settings.plan() + ", start " + settings.start() + ", " + ended.size() + " ended]";
    }

    /** One step's state from its hold on. */
    private static final class StepState {
        final StepWindows.Window window;
        final long holdStartEpochMs;
        final long[] cpuMark;
        long endEpochMs;
        double cpu;
        long[] machineMark;
        Double machineCpu;
        Double lagP99Millis;
        int users;
        GeneratorQueues queuesAtStart = GeneratorQueues.NONE;
        GeneratorQueues queuesAtEnd = GeneratorQueues.NONE;
        IoLanes.Mark ioLaneMark;
        boolean written;

        StepState(StepWindows.Window window, long holdStartEpochMs, long[] cpuMark) {
            this.window = window;
            this.holdStartEpochMs = holdStartEpochMs;
            this.cpuMark = cpuMark;
        }
    }
}
