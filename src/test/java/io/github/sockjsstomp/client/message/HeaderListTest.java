package io.github.sockjsstomp.client.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeaderListTest {

    @Test
    void parseKeepsOrderAndSplitsOnTheFirstColon() {
        Map<String, String> headers = HeaderList.parse("to:bob; x-trace : a:b\nempty:");
        assertThat(headers)
                .containsExactly(Map.entry("to", "bob"), Map.entry("x-trace", "a:b"), Map.entry("empty", ""));
    }

    @Test
    void parseOfBlankIsEmpty() {
        assertThat(HeaderList.parse("  ")).isEmpty();
        assertThat(HeaderList.parse(null)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"novalue", ":value", " : x"})
    void parseRejectsPairsWithoutName(String text) {
        assertThatThrownBy(() -> HeaderList.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text.trim() + "'");
    }

    @Test
    void aPartWithoutColonContinuesThePreviousValue() {
        assertThat(HeaderList.parse("content-type:text/plain;charset=UTF-8;to:bob"))
                .containsExactly(Map.entry("content-type", "text/plain;charset=UTF-8"), Map.entry("to", "bob"));
        assertThat(HeaderList.parse("a:1;;b:2")).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
    }

    @Test
    void describeHidesSecretValues() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("destination", List.of("/app/echo"));
        headers.put("Authorization", List.of("Bearer s3cret"));
        headers.put("passcode", List.of("hunter2"));
        assertThat(HeaderList.describe(headers))
                .isEqualTo("destination:/app/echo\nAuthorization:***\npasscode:***\n")
                .doesNotContain("s3cret")
                .doesNotContain("hunter2");
    }
}
