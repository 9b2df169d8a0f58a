package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.socket.sockjs.frame.Jackson2SockJsMessageCodec;
import org.springframework.web.socket.sockjs.frame.SockJsMessageCodec;

/** The codec as the shared clients build it: Spring's, over one plain ObjectMapper (no builder probing). */
class SockJsCodecTest {

    private final SockJsMessageCodec codec = new Jackson2SockJsMessageCodec(new ObjectMapper());

    @ParameterizedTest
    @ValueSource(
            strings = {
                "CONNECT\naccept-version:1.1,1.0\nheart-beat:10000,10000\n\n\u0000",
                "SEND\ndestination:/app/hello\n\n{\"name\":\"m1-1\"}\u0000",
                "MESSAGE\nx-msg-id:m1-2\n\nquotes \" and \\ backslashes\u0000",
                "MESSAGE\n\n\u4f60\u597d \u2028 line separators \u2029 and emoji \ud83d\ude00\u0000",
                "",
            })
    void framesSurviveTheRoundTrip(String frame) throws Exception {
        String encoded = codec.encode(frame);
        assertThat(encoded).startsWith("a[\"").endsWith("\"]");
        assertThat(codec.decode(encoded.substring(1))).containsExactly(frame);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[\"a\",\"b\"]", "[\"a\", \"b\"]"})
    void batchedMessagesDecodeInOrder(String content) throws Exception {
        assertThat(codec.decode(content)).containsExactly("a", "b");
    }
}
