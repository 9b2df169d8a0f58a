package io.github.sockjsstomp.threadusers;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.user.Silence;
import io.github.sockjsstomp.client.user.UserBehaviour;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SilentSessionsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|10|''",
                "0.5|10|2 4 6 8 10",
                "0.25|10|4 8",
                "0.1|30|10 20 30",
                "0.3|10|4 7 10",
                "1|3|1 2 3",
                "0.001|999|''",
            })
    void picksFloorOfUsersTimesShareEvenlySpread(double share, int users, String picked) {
        String found = String.join(
                " ",
                IntStream.rangeClosed(1, users)
                        .filter(n -> SilentSessions.picks(n, share))
                        .mapToObj(Integer::toString)
                        .toList());
        assertThat(found).isEqualTo(picked);
        assertThat(IntStream.rangeClosed(1, users)
                        .filter(n -> SilentSessions.picks(n, share))
                        .count())
                .isEqualTo((long) Math.floor(users * share + 1e-9));
    }

    @ParameterizedTest
    @CsvSource({"0, 4, false", "0.25, 3, false", "0.25, 4, true", "1, 1, true"})
    void shareMakesSilentTheUsersItPicks(double share, int number, boolean silent) {
        UserBehaviour behaviour = new SilentSessions.Share(share, 5_000, HEARS_NOTHING).of(number, UserBehaviour.PLAIN);

        assertThat(behaviour.goesSilent()).isEqualTo(silent);
        assertThat(behaviour.silentAfterMillis()).isEqualTo(silent ? 5_000 : UserBehaviour.NEVER_SILENT);
    }

    @Test
    void noShareLeavesEveryUserAsItWas() {
        assertThat(SilentSessions.Share.NONE.of(1, UserBehaviour.PLAIN)).isSameAs(UserBehaviour.PLAIN);
    }

    private static final Silence.Listener HEARS_NOTHING = new Silence.Listener() {
        @Override
        public void silent(Silence silence) {}

        @Override
        public void expired(Silence silence) {}
    };
}
