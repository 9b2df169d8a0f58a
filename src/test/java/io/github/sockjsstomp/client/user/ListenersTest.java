package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ListenersTest {

    @Test
    void receiptsAreWantedOnceAListenerWantsThem() {
        Listeners listeners = new Listeners("user #1");
        listeners.add(new UserListener() {});
        assertThat(listeners.receiptsWanted()).isFalse();

        listeners.add(new UserListener() {
            @Override
            public boolean wantsReceipts() {
                return true;
            }
        });
        listeners.add(new UserListener() {});

        assertThat(listeners.receiptsWanted()).isTrue();
    }
}
