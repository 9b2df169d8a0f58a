package io.github.sockjsstomp.serverside;

/**
 * One memory figure of one source over a run (the server's RSS, heap or node memory, the generator's RSS or heap),
 * and what it grew by per session held: {@code (peak - baseline) / (sessions at the peak - sessions at the
 * baseline)}.
 *
 * <p>The <b>baseline</b> is its last reading before the generator first held a session (the memory before the first
 * session); where sessions were held already at its first reading (polling that began late, a source that answered
 * late), that first reading, with the sessions then held. The <b>peak</b> is its first reading at the most sessions
 * held at any of its readings: the nearest to the baseline in time, before what the run does with the sessions (its
 * messages, their garbage, the JIT's code) grows the figure too. The book's own peak may come between two polls: the
 * readings can only say the sessions held when they were taken.
 */
final class SessionMemory {

    private Reading baseline;
    private Reading peak;

    /**
     * @param sessionsBefore whether the generator held a session at any of its rows so far, this round's included
     */
    void add(Reading reading, boolean sessionsBefore) {
        if (baseline == null || !sessionsBefore) {
            baseline = reading;
        }
        if (reading.count() > 0 && (peak == null || reading.count() > peak.count())) {
            peak = reading;
        }
    }

    Reading baseline() {
        return baseline;
    }

    /** Null when no session was held at any of its readings. */
    Reading peak() {
        return peak;
    }

    /** Whether the readings give a figure: more sessions at the peak than at the baseline. */
    boolean hasFigure() {
        return peak != null && peak.count() > baseline.count();
    }

    /** Bytes per session held; only where {@link #hasFigure()}. */
    double perSession() {
        return (peak.value() - baseline.value()) / (peak.count() - baseline.count());
    }

    /** Why there is no figure. */
    String none() {
        return peak == null
                ? "no reading while a session was held"
                : "no more sessions held at any reading than at its first (" + CostWords.count(baseline.count()) + ")";
    }
}
