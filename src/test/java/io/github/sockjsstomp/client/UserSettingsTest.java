package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
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

    /**
     * A thread's users share one server: its URLs are made once, so that no connect parses them again and every
     * held session (Tomcat keeps the URL it opened) holds the same one. Still a value, as the record it was.
     */
    @Test
    void aServerMakesItsUrlsOnceAndIsAValue() {
        UserSettings.Server server = new UserSettings.Server("http", "h", 8080, "/ws", Transport.RAW);
        assertThat(server.stompUri()).isSameAs(server.stompUri()).hasToString("ws://h:8080/ws");
        assertThat(server.endpointHttpUri()).isSameAs(server.endpointHttpUri()).hasToString("http://h:8080/ws");
        UserSettings.Server same = new UserSettings.Server("http", "h", 8080, "/ws", Transport.RAW);
        assertThat(same).isEqualTo(server).hasSameHashCodeAs(server).hasToString(server.toString());
        assertThat(server.withTransport(Transport.WEBSOCKET))
                .isNotEqualTo(server)
                .satisfies(sockJs -> assertThat(sockJs.stompUri()).hasToString("http://h:8080/ws"));
        assertThat(new UserSettings.Server("http", "h", 8081, "/ws", Transport.RAW))
                .isNotEqualTo(server);
    }

    @Test
    void aHostThatMakesNoUrlIsRefusedWhenTheServerIsMade() {
        assertThatThrownBy(() -> new UserSettings.Server("http", "bad host", 8080, "/ws", Transport.RAW))
                .isInstanceOf(IllegalArgumentException.class);
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
