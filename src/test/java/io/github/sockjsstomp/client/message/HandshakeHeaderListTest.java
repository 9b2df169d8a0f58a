package io.github.sockjsstomp.client.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HandshakeHeaderListTest {

    private static UserSettings user(int number, String scheme, int port) {
        return new UserSettings(
                "users #" + number,
                2,
                number,
                new UserSettings.Credentials("user-" + number, ""),
                new UserSettings.Server(scheme, "app.test", port, "/ws", Transport.RAW),
                WebLogin.NONE,
                new UserSettings.ConnectOptions(Map.of(), 0, 1000));
    }

    @Test
    void byDefaultAPageOfTheServerWouldSendItsOriginAndThePluginNamesItself() {
        Map<String, String> headers = HandshakeHeaderList.parse("").of(user(1, "http", 8080));
        assertThat(headers)
                .containsExactly(
                        Map.entry("Origin", "http://app.test:8080"),
                        Map.entry("User-Agent", HandshakeHeaderList.PLUGIN_USER_AGENT));
        assertThat(HandshakeHeaderList.PLUGIN_USER_AGENT).startsWith("jmeter-sockjs-stomp/");
    }

    @ParameterizedTest
    @CsvSource({"http, 80, http://app.test", "https, 443, https://app.test", "https, 8443, https://app.test:8443"})
    void theOriginLeavesOutTheSchemesOwnPort(String scheme, int port, String origin) {
        assertThat(HandshakeHeaderList.parse("").of(user(1, scheme, port))).containsEntry("Origin", origin);
    }

    @Test
    void givenHeadersReplaceTheDefaultsWhateverTheirCaseAndNameTheirUser() {
        HandshakeHeaderList list =
                HandshakeHeaderList.parse("origin:https://page.example.com;X-Device:{{login}}-{{thread}};User-Agent:");
        assertThat(list.of(user(7, "http", 8080)))
                .containsExactly(Map.entry("origin", "https://page.example.com"), Map.entry("X-Device", "user-7-2"));
        assertThat(list.of(user(8, "http", 8080))).containsEntry("X-Device", "user-8-2");
    }

    @Test
    void anOriginGivenWithNoValueIsNotSent() {
        assertThat(HandshakeHeaderList.parse("Origin:").of(user(1, "http", 8080)))
                .containsOnlyKeys("User-Agent");
    }

    @Test
    void headersThatNameNoUserAreMadeOncePerServer() {
        HandshakeHeaderList list = HandshakeHeaderList.parse("X-Test:1");
        assertThat(list.of(user(1, "http", 8080))).isSameAs(list.of(user(2, "http", 8080)));
        assertThat(list.of(user(3, "http", 9090))).containsEntry("Origin", "http://app.test:9090");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"Host:x", "Sec-WebSocket-Key:abc", "sec-websocket-extensions:permessage-deflate", "Cookie:a=b"})
    void headersTheHandshakeOrTheLoginSetAreRefusedNamingThem(String text) {
        String name = text.substring(0, text.indexOf(':'));
        assertThatThrownBy(() -> HandshakeHeaderList.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(name + " ");
    }

    @Test
    void anUnknownPlaceholderIsRefusedNamingTheHeader() {
        assertThatThrownBy(() -> HandshakeHeaderList.parse("X-Id:{{msgId}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("X-Id: unknown placeholder {{msgId}}");
    }
}
