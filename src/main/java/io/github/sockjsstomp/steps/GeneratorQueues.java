package io.github.sockjsstomp.steps;

/**
 * The generator's own queues: records waiting for the timing log writers and finished messages waiting in the
 * reply feed for the replies sampler (which turns each into a JMeter sample), read at one moment; and, read over
 * the hold that ends at that moment, its busiest I/O thread, whose queue is the kernel's socket buffers (no
 * figure of its own to read). Any of them full or growing says the generator fell behind with its own work,
 * whatever the server did.
 *
 * @param timingLogBacklog records queued for the timing logs' writer threads, all logs of the run
 * @param replyFeedQueued finished messages queued for the replies sampler
 * @param replyFeedCapacity the reply feed's capacity (a full feed drops what no sample will show)
 * @param busiestIoLane the busiest I/O thread over the hold ending now; null: not read (at a hold's start, or no
 *     I/O thread of ours: {@code sockjsstomp.ioThreads=0})
 */
public record GeneratorQueues(
        long timingLogBacklog, long replyFeedQueued, long replyFeedCapacity, IoLanes.Busiest busiestIoLane) {

    /** No queue read (tests, and a run without the figures). */
    public static final GeneratorQueues NONE = new GeneratorQueues(0, 0, 0);

    /** The queues read at one moment, no I/O thread's figure. */
    public GeneratorQueues(long timingLogBacklog, long replyFeedQueued, long replyFeedCapacity) {
        this(timingLogBacklog, replyFeedQueued, replyFeedCapacity, null);
    }

    /** These queues with the busiest I/O thread over the hold that ends now. */
    GeneratorQueues withBusiestIoLane(IoLanes.Busiest busiest) {
        return new GeneratorQueues(timingLogBacklog, replyFeedQueued, replyFeedCapacity, busiest);
    }
}
