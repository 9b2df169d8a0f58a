package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UserSettingsTest {

    @ParameterizedTest
    @CsvSource({
        "http, websocket, /ws, http://h:8080/ws",
        "https, xhr-streaming, ws, https://h:8080/ws",
        "http, raw, /stomp, ws://h:8080/stomp",
        "https, raw, /stomp, wss://h:8080/stomp",
        "http, auto, /gs-guide-websocket, http://h:8080/gs-guide-websocket",
    })
    void stompUriFollowsSchemeAndTransport(String scheme, String transport, String endpoint, String expected) {
        UserSettings settings = new UserSettings(
                "u",
                1,
                1,
                UserSettings.Credentials.NONE,
                new UserSettings.Server(scheme, "h", 8080, endpoint, Transport.fromParameter(transport)),
                WebLogin.NONE,
                new UserSettings.ConnectOptions(Map.of(), 0, 1000));
        assertThat(settings.server().stompUri()).hasToString(expected);
        assertThat(settings.server().httpUri("index")).hasToString(scheme + "://h:8080/index");
    }

    @ParameterizedTest
    @CsvSource({"ftp, 80, scheme", "http, 0, port", "http, 70000, port"})
    void serverRejectsBadValuesNamingThem(String scheme, int port, String name) {
        assertThatThrownBy(() -> new UserSettings.Server(scheme, "h", port, "/ws", Transport.WEBSOCKET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(name);
    }

    @ParameterizedTest
    @CsvSource({"WebSocket, websocket", "xhr, xhr", " raw , raw"})
    void transportsParseCaseInsensitively(String value, String expected) {
        assertThat(Transport.fromParameter(value).parameterValue()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"ws", "''", "sockjs"})
    void unknownTransportsAreRefusedQuotingTheValue(String value) {
        assertThatThrownBy(() -> Transport.fromParameter(value))
                .hasMessageContaining("'" + value + "'")
                .hasMessageContaining("websocket | xhr-streaming | xhr | raw");
    }
}
