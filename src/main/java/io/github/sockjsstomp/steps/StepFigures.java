package io.github.sockjsstomp.steps;

/**
 * What one step measured over its hold, as the steps log writes it. A figure that is absent (no message in the
 * hold, no answer, no scheduled sender) is null: an empty cell.
 *
 * @param users users holding a session at the step's end
 * @param sent messages sent in the hold (null: none, a step with no messages)
 * @param achieved answered messages per second over the hold (rate steps); users holding a session (users steps)
 * @param sendLagP99Millis the scheduled sender's lag behind its schedule, p99 over the hold
 * @param generatorCpu this JVM's process CPU over the hold as a fraction of its cores (0..1)
 * @param machineCpu the whole machine's CPU over the hold as a fraction of all its cores (0..1); null: not read
 * @param connects session connects started in the hold
 * @param heartbeatMisses sessions lost in the hold because the server's heart-beats stopped arriving
 */
public record StepFigures(
        int step,
        StepKind kind,
        double offered,
        long rampStartEpochMs,
        long holdStartEpochMs,
        long endEpochMs,
        int users,
        Long sent,
        Long answered,
        Long lost,
        Long failed,
        double achieved,
        Long p50Micros,
        Long p99Micros,
        Long p999Micros,
        Double sendLagP99Millis,
        double generatorCpu,
        Double machineCpu,
        long connects,
        long connectFailed,
        Long connectP99Millis,
        long heartbeatMisses) {

    /** Lost messages as a share of those sent, in percent; 0 when none was sent. */
    public double lostPercent() {
        return percent(lost, sent);
    }

    public double failedPercent() {
        return percent(failed, sent);
    }

    public double connectFailedPercent() {
        return connects == 0 ? 0 : 100.0 * connectFailed / connects;
    }

    private static double percent(Long part, Long whole) {
        return part == null || whole == null || whole == 0 ? 0 : 100.0 * part / whole;
    }

    /** How long the hold lasted, in seconds: its figures are counted over it. */
    public double holdSeconds() {
        return (endEpochMs - holdStartEpochMs) / 1000.0;
    }
}
