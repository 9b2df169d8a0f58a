package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.client.message.IncomingMessage;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.messaging.simp.stomp.StompHeaders;

class ReplyIdFinderTest {

    private final MessageIds ids = new MessageIds("mtest00-");

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NONE",
            value = {
                // header | pattern | body | expected
                "mtest00-1|NONE|{\"content\":\"mtest00-2\"}|mtest00-1",
                "NONE|NONE|{\"content\":\"Hello, mtest00-2!\"}|mtest00-2",
                "NONE|\"ref\":\"([^\"]+)\"|{\"ref\":\"abc-9\"}|abc-9",
                "NONE|\"ref\":\"([^\"]+)\"|{\"content\":\"mtest00-2\"}|NONE",
                "''|NONE|nothing here|NONE",
            })
    void findLooksInHeaderThenPatternOrOwnIds(String header, String pattern, String body, String expected) {
        ReplyIdFinder finder = new ReplyIdFinder("x-msg-id", pattern == null ? null : Pattern.compile(pattern), ids);
        StompHeaders headers = new StompHeaders();
        if (header != null) {
            headers.set("x-msg-id", header);
        }
        IncomingMessage message = new IncomingMessage(
                TestMessages.user("bob"), "/topic/t", headers, body.getBytes(StandardCharsets.UTF_8), 0);
        assertThat(finder.find(message)).isEqualTo(expected);
    }

    @Test
    void patternWithoutGroupIsRefused() {
        assertThatThrownBy(() -> new ReplyIdFinder("", Pattern.compile("id=\\d+"), ids))
                .hasMessageContaining("'id=\\d+'")
                .hasMessageContaining("capturing group");
    }
}
