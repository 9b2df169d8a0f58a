/**
 * The senders' loops of the send sampler: the scheduled sender, an open loop at {@code messagesPerSecondPerThread}
 * ({@link ScheduledSender} on a {@link SendSchedule}), and the closed loop, each user sending after its last message's
 * outcome ({@link ClosedLoopSender} driving {@link UserLoops}). They send on the thread's users and ask the sampler
 * only what {@link SendingSampler} says, so that they never import the samplers.
 */
package io.github.sockjsstomp.loops;
