package io.github.sockjsstomp.loops;

import org.apache.jmeter.samplers.SampleResult;

/**
 * A sender's row, and whether each of its messages has an outcome of its own in the books (answered, LOST, FAILED):
 * a replies sampler ({@code replySamples}) makes a row of each such outcome, so the sender's row is then not shown,
 * or its messages would be counted twice (and with the scheduled sender the dashboard would count ticks, not
 * messages). A refusal, a failed connect or a ConfigError is no message's outcome: it stays.
 */
public record SenderRow(SampleResult result, boolean ofMessages) {

    /** A row that stands for no message's outcome. */
    static SenderRow other(SampleResult result) {
        return new SenderRow(result, false);
    }
}
