package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MessageIdsTest {

    private final MessageIds ids = new MessageIds("mabc123-");

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NONE",
            value = {
                "{\"content\":\"Hello, mabc123-42!\"}|mabc123-42",
                "mabc123-7|mabc123-7",
                "mabc123-|NONE",
                "mabc123-x then mabc123-9|mabc123-9",
                "xmabc12-3 mabc123-12345678901|mabc123-12345678901",
                "plain text|NONE",
                "''|NONE",
                "Hello, m&lt;mabc123-5&gt;|mabc123-5",
            })
    void findInFindsTheFirstCompleteId(String body, String expected) {
        assertThat(ids.findIn(body.getBytes(StandardCharsets.UTF_8))).isEqualTo(expected);
    }

    @Test
    void nextIsUniqueAndRecognisedAsOurs() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String id = ids.next();
            assertThat(seen.add(id)).isTrue();
            assertThat(ids.isOurs(id)).isTrue();
        }
        assertThat(ids.isOurs("mzzz999-1")).isFalse();
    }

    @Test
    void randomPrefixesDifferBetweenGenerators() {
        assertThat(MessageIds.random().prefix())
                .isNotEqualTo(MessageIds.random().prefix())
                .matches("m[a-z0-9]{6}-");
    }

    @Test
    void prefixMustSurviveEscaping() {
        assertThatThrownBy(() -> new MessageIds("a\"b-")).hasMessageContaining("'a\"b-'");
    }

    @ParameterizedTest
    @CsvSource({
        "mabc123-17, 17",
        "mabc123-1, 1",
        "mabc123-, -1",
        "mabc123-1x, -1",
        "mother1-17, -1",
        "mabc123-9223372036854775807, -1"
    })
    void theSequenceNumberOfOneOfOurIds(String id, long sequence) {
        assertThat(new MessageIds("mabc123-").sequenceOf(id)).isEqualTo(sequence);
    }
}
