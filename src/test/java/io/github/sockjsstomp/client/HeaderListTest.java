package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeaderListTest {

    @Test
    void parseKeepsOrderAndSplitsOnTheFirstColon() {
        Map<String, String> headers = HeaderList.parse("to:bob; x-trace : a:b\nempty:");
        assertThat(headers).containsExactly(Map.entry("to", "bob"), Map.entry("x-trace", "a:b"),
                Map.entry("empty", ""));
    }

    @Test
    void parseOfBlankIsEmpty() {
        assertThat(HeaderList.parse("  ")).isEmpty();
        assertThat(HeaderList.parse(null)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"novalue", ":value", " : x"})
    void parseRejectsPairsWithoutName(String text) {
        assertThatThrownBy(() -> HeaderList.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text.trim() + "'");
    }
}
