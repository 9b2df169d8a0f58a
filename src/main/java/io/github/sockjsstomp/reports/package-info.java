/**
 * What a run tells the people who run it, on JMeter's terms: each sample's shape ({@link Sample}), the console and
 * jmeter.log lines ({@link RunReports}), the checks of the JMeter properties they typed ({@link TypedProperties},
 * {@link ClientProperties}) and the engine that speaks ({@link EngineName}). The lowest room that imports JMeter:
 * the samplers, the thread's users and the senders' loops all make samples and say things here, so none of them
 * needs another's names for it.
 */
package io.github.sockjsstomp.reports;
