package io.github.sockjsstomp.client.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.socket.WebSocketExtension;

class DeflateOfferTest {

    @Test
    void browserIsChromesOfferWordForWordAndOffIsNone() {
        assertThat(DeflateOffer.parse("browser").header()).isEqualTo("permessage-deflate; client_max_window_bits");
        assertThat(DeflateOffer.parse(" Browser ")).isEqualTo(DeflateOffer.BROWSER);
        assertThat(DeflateOffer.parse("off").offers()).isFalse();
        assertThat(DeflateOffer.OFF).hasToString("off");
    }

    @Test
    void anOfferWrittenOutGoesAsItIs() {
        DeflateOffer offer =
                DeflateOffer.parse("permessage-deflate; client_no_context_takeover; server_max_window_bits=10");
        assertThat(offer.header())
                .isEqualTo("permessage-deflate; client_no_context_takeover; server_max_window_bits=10");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "on", "x-webkit-deflate-frame", "gzip"})
    void anythingElseIsRefusedSayingWhatIsExpected(String value) {
        assertThatThrownBy(() -> DeflateOffer.parse(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected browser, off, or an offer that starts with permessage-deflate");
    }

    @Test
    void anOfferWithAParameterRfc7692DoesNotKnowIsRefusedNamingIt() {
        assertThatThrownBy(() -> DeflateOffer.parse("permessage-deflate; mem_level=9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mem_level");
    }

    @Test
    void whatWasAgreedReadsAsTheServerAnswered() {
        assertThat(DeflateOffer.agreed(List.of())).isEqualTo("none");
        assertThat(DeflateOffer.agreed(
                        List.of(new WebSocketExtension("permessage-deflate", Map.of("client_max_window_bits", "15")))))
                .isEqualTo("permessage-deflate; client_max_window_bits=15");
    }
}
