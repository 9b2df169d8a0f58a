/**
 * The samples a run records, on JMeter's terms: each sample's shape ({@link Sample}: one shape of timing,
 * self-describing results), the lines a run says beside its samples on the console and in jmeter.log
 * ({@link RunReports}) and the engine that records them ({@link EngineName}). The lowest room that makes
 * samples: the samplers, the thread's users and the senders' loops all make samples and say things here, so none
 * of them needs another's names for it.
 */
package io.github.sockjsstomp.samples;
