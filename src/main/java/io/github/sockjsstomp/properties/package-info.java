/**
 * The plans' vocabulary and its checks: every property a plan of jmx/ reads and the renamed ones
 * ({@link PlanVocabulary}), what a run says about typed properties its plan does not read ({@link TypedPropertyCheck},
 * {@link NearestName}; {@link TypedProperties}, the JMeter side that finds what the running plan reads), the JVM-wide
 * {@code sockjsstomp.*} settings ({@link ClientProperties}) and where a check puts what stops the test
 * ({@link Problems}).
 */
package io.github.sockjsstomp.properties;
