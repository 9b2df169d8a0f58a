package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.user.Silence;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Silent sessions (dead clients) as JMeter sees them: which users go silent, and the one {@code expired}
 * sample of each, timed from going silent to the server's close, or failed {@code NotExpired} when the test
 * ended first.
 */
final class SilentSessions {

    static final String LABEL = "expired";
    static final String NOT_EXPIRED = "NotExpired";

    private SilentSessions() {}

    /**
     * Whether user {@code number} (from 1) goes silent: when {@code floor(number * share)} steps up, so that
     * users 1 to N hold exactly {@code floor(N * share)} silent ones, evenly spread (every 4th for 0.25),
     * whatever the threads and their order. The small tolerance keeps 0.1 * 30 from landing just under 3.
     */
    static boolean picks(int number, double share) {
        return Math.floor(number * share + 1e-9) > Math.floor((number - 1) * share + 1e-9);
    }

    /** The server closed it: the sample is the time it took to notice. */
    static SampleResult expired(Silence silence) {
        SampleResult result = Sample.newResult(LABEL);
        long millis = TimeUnit.NANOSECONDS.toMillis(silence.detectionNanos());
        StompReplySampler.times(result, silence.silentEpochMillis(), millis);
        String status = silence.closeStatus();
        Sample.ok(
                result,
                "Closed by the server " + millis + " ms after " + silence.user() + " went silent"
                        + (status.isEmpty() ? "" : " (close status " + status + ")"));
        return result;
    }

    /** The test ended with the session still open: the sample is the time it stayed unnoticed. */
    static SampleResult notExpired(Silence silence, long nowMillis) {
        SampleResult result = Sample.newResult(LABEL);
        long millis = Math.max(0, nowMillis - silence.silentEpochMillis());
        StompReplySampler.times(result, silence.silentEpochMillis(), millis);
        Sample.fail(
                result,
                NOT_EXPIRED,
                silence.user() + " was silent for " + millis
                        + " ms and the server had not closed its session when the test ended");
        return result;
    }
}
