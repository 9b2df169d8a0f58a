package io.github.sockjsstomp.client.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.web.socket.WebSocketHttpHeaders;

class BearerTokenTest {

    @ParameterizedTest
    @ValueSource(strings = {"token-alice", " token-alice ", "Bearer token-alice", "bearer  token-alice"})
    void headerValueIsBearerAndTheToken(String given) {
        assertThat(new BearerToken(given).headerValue()).isEqualTo("Bearer token-alice");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "Bearer ", "two words"})
    void emptyOrSpacedTokensAreRefused(String given) {
        assertThatThrownBy(() -> new BearerToken(given)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void goesOnHandshakeAndConnect() {
        BearerToken token = new BearerToken("token-bob");
        WebSocketHttpHeaders handshake = new WebSocketHttpHeaders();
        StompHeaders connect = new StompHeaders();

        token.addTo(handshake);
        token.addTo(connect);

        assertThat(handshake.getFirst("Authorization")).isEqualTo("Bearer token-bob");
        assertThat(connect.getFirst("Authorization")).isEqualTo("Bearer token-bob");
    }

    @Test
    void toStringHidesTheToken() {
        assertThat(new BearerToken("secret-value").toString())
                .doesNotContain("secret-value")
                .contains("secr");
    }
}
