package io.github.sockjsstomp.steps;

/**
 * The generator's own queues at one moment: records waiting for the timing log writers, and finished messages
 * waiting in the reply feed for the replies sampler (which turns each into a JMeter sample). Either growing says
 * the generator fell behind with its own work, whatever the server did.
 *
 * @param timingLogBacklog records queued for the timing logs' writer threads, all logs of the run
 * @param replyFeedQueued finished messages queued for the replies sampler
 * @param replyFeedCapacity the reply feed's capacity (a full feed drops what no sample will show)
 */
public record GeneratorQueues(long timingLogBacklog, long replyFeedQueued, long replyFeedCapacity) {

    /** No queue read (tests, and a run without the figures). */
    public static final GeneratorQueues NONE = new GeneratorQueues(0, 0, 0);
}
