package io.github.sockjsstomp.client;

/**
 * The outcome of one step of a virtual user's connect (an HTTP login request, the STOMP connect, a subscribe), with
 * what a JMeter sub-result needs.
 *
 * @param code an HTTP status, "200" for a successful STOMP step, or a failure code such as "ConnectTimeout"
 * @param startEpochMillis wall-clock start
 * @param elapsedNanos monotonic duration
 */
public record ConnectStepResult(
        String label,
        boolean ok,
        String code,
        String message,
        long startEpochMillis,
        long elapsedNanos,
        long bytes,
        String body) {

    public static ConnectStepResult success(
            String label,
            String code,
            String message,
            long startEpochMillis,
            long startNanos,
            long bytes,
            String body) {
        return new ConnectStepResult(
                label, true, code, message, startEpochMillis, System.nanoTime() - startNanos, bytes, body);
    }

    public static ConnectStepResult failure(
            String label, String code, String message, long startEpochMillis, long startNanos) {
        return new ConnectStepResult(
                label, false, code, message, startEpochMillis, System.nanoTime() - startNanos, 0, "");
    }

    public long elapsedMillis() {
        return elapsedNanos / 1_000_000;
    }
}
