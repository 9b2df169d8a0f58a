package io.github.sockjsstomp.steps;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the generator itself held the pace over a step: its scheduled sender's lag behind schedule and its
 * JVM's CPU. A step that broke while either is over its threshold is the generator's limit: the offered load was
 * not what the server got, so the server's figures say nothing of the server.
 *
 * @param lagMillis send lag p99 above this says the sender could not keep its schedule (see docs/capacity.md)
 * @param cpuShare process CPU above this share of the JVM's cores says the generator was out of CPU
 * @param machineShare the whole machine's CPU at or above this share of all its cores says the machine was full
 */
public record GeneratorCheck(double lagMillis, double cpuShare, double machineShare) {

    /**
     * A generator out of breath falls further behind every second (an open loop does not absorb its lag): over a
     * hold of seconds its lag p99 is seconds. One that keeps its pace is within a tick or two (10 ms each), and a
     * pause of its JVM (a GC, a busy machine: 108 ms seen on a shared 2-core machine at 25 msg/s) is caught up at
     * the next wake-up; 500 ms is above such pauses and far below a generator that lost the pace. 90% of the cores
     * leaves the I/O threads that read and time the replies nothing to run on. A machine 95% busy over a hold of
     * seconds has no core free for long: whatever runs on it (the server, when it is there; the generator; other
     * work) waits its turn, so a step that broke then may be the machine's, not the server's alone.
     */
    public static final GeneratorCheck DEFAULT = new GeneratorCheck(500, 0.9, 0.95);

    /**
     * A rate step's hold sending less than half of what it offered: the generator did not hold its pace (the lag
     * check catches a sender that falls behind; this one a sender that did not send at all).
     */
    static final double SENT_SHARE = 0.5;

    /**
     * The check for senders that wake at most once per {@code tickMillis}: a message due just after a wake-up waits
     * for the next by design, so lag up to a tick is the schedule, not a generator out of breath; twice the tick
     * (when that is above the threshold) is falling behind.
     */
    public GeneratorCheck forTick(long tickMillis) {
        return new GeneratorCheck(Math.max(lagMillis, 2.0 * tickMillis), cpuShare, machineShare);
    }

    /**
     * A timing log backlog below this many records is a writer between its batches (it looks every 100 ms), not one
     * that fell behind; above it, and above a second of the hold's messages and growing, it fell behind.
     */
    static final long BACKLOG_RECORDS = 10_000;

    /** A reply feed this full is a replies sampler that cannot keep up: what overflows it is never a sample. */
    static final double FEED_FULL = 0.9;

    /**
     * An I/O thread on CPU this share of a hold had no moment free: the replies of its sessions waited in their
     * sockets' buffers for it, and were timed late by the generator, not the server.
     */
    static final double IO_LANE_FULL = 0.95;

    /** What showed the generator could not hold its pace, in words; empty: it kept it. */
    public List<String> limits(StepFigures figures, int cores) {
        return limits(figures, cores, GeneratorQueues.NONE, GeneratorQueues.NONE);
    }

    /**
     * As {@link #limits(StepFigures, int)}, and the generator's own queues at the hold's start and end: a timing log
     * writer that fell behind (its backlog above {@value #BACKLOG_RECORDS} records and a second of the hold's
     * messages, and grown over the hold), a reply feed nearly full, an I/O thread busy the whole hold.
     */
    public List<String> limits(StepFigures figures, int cores, GeneratorQueues start, GeneratorQueues end) {
        List<String> said = paceAndCpu(figures, cores);
        long perSecond =
                figures.sent() == null ? 0 : Math.round(figures.sent() / Math.max(0.001, figures.holdSeconds()));
        long backlog = end.timingLogBacklog();
        if (backlog > Math.max(BACKLOG_RECORDS, perSecond) && backlog > start.timingLogBacklog()) {
            said.add("timing log writer " + backlog + " records behind (" + start.timingLogBacklog()
                    + " at the hold's start)");
        }
        if (end.replyFeedCapacity() > 0 && end.replyFeedQueued() >= FEED_FULL * end.replyFeedCapacity()) {
            said.add("reply feed " + end.replyFeedQueued() + " of " + end.replyFeedCapacity() + " full");
        }
        IoLanes.Busiest lane = end.busiestIoLane();
        if (lane != null && lane.share() >= IO_LANE_FULL) {
            said.add("I/O thread " + lane.thread() + " busy " + Math.round(lane.share() * 100) + "% of the hold");
        }
        return said;
    }

    /**
     * The machine saturated over the hold, in words ({@code 98% of 2 cores busy, the generator 41%: server and
     * generator share it}); null when it was not, or its CPU was not read.
     */
    public String machineSaturated(StepFigures figures, int generatorCores, int machineCores) {
        Double machine = figures.machineCpu();
        if (machine == null || machine < machineShare) {
            return null;
        }
        String generator = Math.round(figures.generatorCpu() * 100) + "%"
                + (generatorCores == machineCores ? "" : " of " + cores(generatorCores));
        return Math.round(machine * 100) + "% of " + cores(machineCores) + " busy, the generator " + generator
                + ": server and generator share it";
    }

    private static String cores(int cores) {
        return cores + (cores == 1 ? " core" : " cores");
    }

    /** The send lag, the share of the offer sent, and the CPU. */
    private List<String> paceAndCpu(StepFigures figures, int cores) {
        List<String> said = new ArrayList<>();
        if (figures.sendLagP99Millis() != null && figures.sendLagP99Millis() > lagMillis) {
            said.add("send lag p99 " + Math.round(figures.sendLagP99Millis()) + " ms");
        }
        if (figures.kind() == StepKind.RATE && figures.sent() != null) {
            // A sender that cannot keep up sends less than the step offers, however its lag is measured (a thread
            // still connecting its users, a sender blocked on a write, sends nothing and lags nothing)
            double holdSeconds = figures.holdSeconds();
            long offered = Math.round(figures.offered() * holdSeconds);
            if (holdSeconds > 0 && figures.sent() < SENT_SHARE * offered) {
                said.add("sent " + figures.sent() + " of the " + offered + " messages the hold offered");
            }
        }
        if (figures.generatorCpu() > cpuShare) {
            said.add("CPU " + Math.round(figures.generatorCpu() * 100) + "% of " + cores
                    + (cores == 1 ? " core" : " cores"));
        }
        return said;
    }
}
