/**
 * The steps as JMeter's threads follow them: each thread's share of the step under way, for the samplers and
 * senders that move with the steps ({@link StepsFollower}), and each step's verdict as a sample of the steps sampler
 * ({@link StepSamples}). Apart from {@code steps}, which knows nothing of JMeter, and below the samplers and the
 * senders' loops that use it.
 */
package io.github.sockjsstomp.steps.followers;
