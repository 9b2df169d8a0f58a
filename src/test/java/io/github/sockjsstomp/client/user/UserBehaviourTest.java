package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UserBehaviourTest {

    private static final Silence.Listener HEARS_NOTHING = new Silence.Listener() {
        @Override
        public void silent(Silence silence) {}

        @Override
        public void expired(Silence silence) {}
    };

    @Test
    void plainNeverGoesSilentAndMakesNoSilence() {
        assertThat(UserBehaviour.PLAIN.goesSilent()).isFalse();
        assertThat(UserBehaviour.PLAIN.newSilence("user #1")).isNull();
        assertThat(UserBehaviour.PLAIN.acks()).isSameAs(AckSettings.AUTO);
    }

    @Test
    void silentAfterMakesASilenceForEachSession() {
        UserBehaviour silent = UserBehaviour.PLAIN.silentAfter(0, HEARS_NOTHING);

        assertThat(silent.goesSilent()).isTrue();
        Silence first = silent.newSilence("user #1");
        assertThat(first.user()).isEqualTo("user #1");
        assertThat(silent.newSilence("user #1")).isNotSameAs(first);
    }

    @Test
    void goingSilentWithoutAListenerIsRefused() {
        assertThatThrownBy(() -> UserBehaviour.PLAIN.silentAfter(1_000, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listener");
    }

    @Test
    void aNegativeSilenceOtherThanNeverIsRefused() {
        assertThatThrownBy(() -> UserBehaviour.PLAIN.silentAfter(-2, HEARS_NOTHING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-2");
    }
}
