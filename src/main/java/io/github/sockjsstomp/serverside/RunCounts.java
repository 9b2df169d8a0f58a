package io.github.sockjsstomp.serverside;

/**
 * What the run counts, read by the generator's row of every poll ({@link GeneratorSource}): the run the rows belong
 * to, and the sessions and messages the server's readings after it are divided by.
 */
public interface RunCounts {

    /** The run's id, as its timing log writes it: epoch milliseconds of its start. */
    long runId();

    /** Sessions held now. */
    long sessionsHeld();

    /** Timed messages sent so far (the books' sent). */
    long messagesSent();
}
