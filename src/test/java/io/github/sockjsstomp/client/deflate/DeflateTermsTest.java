package io.github.sockjsstomp.client.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.websocket.Extension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeflateTermsTest {

    private record Parameter(String getName, String getValue) implements Extension.Parameter {}

    private static List<Extension.Parameter> answer(String... pairs) {
        List<Extension.Parameter> parameters = new ArrayList<>();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            parameters.add(
                    equals < 0
                            ? new Parameter(pair, null)
                            : new Parameter(pair.substring(0, equals), pair.substring(equals + 1)));
        }
        return parameters;
    }

    @Test
    void aBareAnswerKeepsContextAndTheFullWindows() {
        assertThat(DeflateTerms.of(answer())).isEqualTo(new DeflateTerms(true, 15, 15));
    }

    @Test
    void theServersAnswerIsRead() {
        assertThat(DeflateTerms.of(answer(
                        "server_no_context_takeover",
                        "client_no_context_takeover",
                        "server_max_window_bits=10",
                        "client_max_window_bits=\"12\"")))
                .isEqualTo(new DeflateTerms(false, 10, 12));
    }

    @Test
    void anAnswerAClientMayNotAcceptIsNone() {
        assertThat(DeflateTerms.of(answer("server_max_window_bits=7"))).isNull();
        assertThat(DeflateTerms.of(answer("server_max_window_bits=16"))).isNull();
        assertThat(DeflateTerms.of(answer("server_max_window_bits"))).isNull();
        assertThat(DeflateTerms.of(answer("server_no_context_takeover", "server_no_context_takeover")))
                .isNull();
        assertThat(DeflateTerms.of(answer("x_unknown"))).isNull();
    }
}
