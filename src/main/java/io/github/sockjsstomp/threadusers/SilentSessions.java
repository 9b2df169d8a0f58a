package io.github.sockjsstomp.threadusers;

import io.github.sockjsstomp.client.user.Silence;
import io.github.sockjsstomp.client.user.UserBehaviour;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.samples.Sample;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Silent sessions (dead clients) as JMeter sees them: which users go silent, and the one {@code expired}
 * sample of each, timed from going silent to the server's close, or failed {@code NotExpired} when the test
 * ended first.
 */
public final class SilentSessions {

    static final String LABEL = "expired";
    static final String NOT_EXPIRED = "NotExpired";

    private SilentSessions() {}

    /**
     * Which of a thread's users go silent: those {@link #picks} for {@code share}, each session {@code afterMillis}
     * after its connect, told to {@code listener}.
     */
    public record Share(double share, long afterMillis, Silence.Listener listener) {

        /** No user goes silent. */
        public static final Share NONE = new Share(0, 0, null);

        /** {@code behaviour}, silent as this share says if it picks user {@code number} (from 1). */
        public UserBehaviour of(int number, UserBehaviour behaviour) {
            return share > 0 && picks(number, share) ? behaviour.silentAfter(afterMillis, listener) : behaviour;
        }
    }

    /** Whether {@code user}'s session went silent: it is never reconnected, its end is its expired sample. */
    static boolean wentSilent(VirtualUser user) {
        Silence silence = user.silence();
        return silence != null && silence.wentSilent();
    }

    /** How many of {@code users} went silent. */
    public static int silentCount(List<VirtualUser> users) {
        return (int) users.stream().filter(SilentSessions::wentSilent).count();
    }

    /** A silent session the server closed and no sample reported yet, taken for its sample; null if none. */
    public static Silence takeExpired(List<VirtualUser> users) {
        for (VirtualUser user : users) {
            Silence silence = user.silence();
            if (silence != null && silence.expired() && silence.takeReport()) {
                return silence;
            }
        }
        return null;
    }

    /**
     * Whether user {@code number} (from 1) goes silent: when {@code floor(number * share)} steps up, so that
     * users 1 to N hold exactly {@code floor(N * share)} silent ones, evenly spread (every 4th for 0.25),
     * whatever the threads and their order. The small tolerance keeps 0.1 * 30 from landing just under 3.
     */
    static boolean picks(int number, double share) {
        return Math.floor(number * share + 1e-9) > Math.floor((number - 1) * share + 1e-9);
    }

    /** The server closed it: the sample is the time it took to notice. */
    public static SampleResult expired(Silence silence) {
        SampleResult result = Sample.newResult(LABEL);
        long millis = TimeUnit.NANOSECONDS.toMillis(silence.detectionNanos());
        Sample.times(result, silence.silentEpochMillis(), millis);
        String status = silence.closeStatus();
        Sample.ok(
                result,
                "Closed by the server " + millis + " ms after " + silence.user() + " went silent"
                        + (status.isEmpty() ? "" : " (close status " + status + ")"));
        return result;
    }

    /** The test ended with the session still open: the sample is the time it stayed unnoticed. */
    public static SampleResult notExpired(Silence silence, long nowMillis) {
        SampleResult result = Sample.newResult(LABEL);
        long millis = Math.max(0, nowMillis - silence.silentEpochMillis());
        Sample.times(result, silence.silentEpochMillis(), millis);
        Sample.fail(
                result,
                NOT_EXPIRED,
                silence.user() + " was silent for " + millis
                        + " ms and the server had not closed its session when the test ended");
        return result;
    }
}
