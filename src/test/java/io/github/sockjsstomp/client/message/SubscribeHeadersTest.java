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

class SubscribeHeadersTest {

    private static final UserSettings ALICE = new UserSettings(
            "receivers #7",
            3,
            7,
            new UserSettings.Credentials("alice", ""),
            new UserSettings.Server("http", "localhost", 8080, "/ws", Transport.WEBSOCKET),
            WebLogin.NONE,
            new UserSettings.ConnectOptions(Map.of(), 0, 1000));

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "prefetch-count:50|{prefetch-count=50}",
                "x-queue-name:bench.{{userNumber}}|{x-queue-name=bench.7}",
                "durable-subscription-name:sub.{{login}}.{{thread}};subscription-type:MULTICAST"
                        + "|{durable-subscription-name=sub.alice.3, subscription-type=MULTICAST}",
                "' durable : true ; auto-delete:false '|{durable=true, auto-delete=false}",
                "id:{{user}}|{id=receivers #7}",
                "ack:auto;consumer-window-size:0|{ack=auto, consumer-window-size=0}",
                "x-stream-offset:first|{x-stream-offset=first}",
            })
    void eachValueIsRenderedForItsUserInTheOrderWritten(String text, String expected) {
        SubscribeHeaders headers = SubscribeHeaders.parse(text);
        assertThat(headers.render(Template.of(ALICE))).hasToString(expected);
        assertThat(headers.source()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", ";", "\n"})
    void nothingWrittenIsNone(String text) {
        SubscribeHeaders headers = SubscribeHeaders.parse(text);
        assertThat(headers.isEmpty()).isTrue();
        assertThat(headers.hasId()).isFalse();
        assertThat(headers.render(Template.of(ALICE))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "prefetch-count|'prefetch-count' is not a header; expected name:value",
                ":50|':50' is not a header; expected name:value",
                "destination:/queue/other|destination is not a subscribe header here: each SUBSCRIBE's destination is "
                        + "subscribeTo's",
                "ack:sometimes|ack:sometimes is no STOMP acknowledgement mode; expected auto, client or "
                        + "client-individual",
                "ack:{{user}}|ack:{{user}} is no STOMP acknowledgement mode",
                "x-queue-name:q.{{seq}}|x-queue-name: unknown placeholder {{seq}}",
                "x-queue-name:q.{{userNumber|x-queue-name: unclosed placeholder",
            })
    void aValueThatCannotBeSentIsRefusedQuotingIt(String text, String message) {
        assertThatThrownBy(() -> SubscribeHeaders.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "ack:client|client",
                "prefetch-count:50;ack:client-individual|client-individual",
                "ack:auto|auto",
            })
    void anAckModeIsTakenAndTold(String text, String mode) {
        assertThat(SubscribeHeaders.parse(text).ackMode()).isEqualTo(AckMode.parse(mode));
        assertThat(SubscribeHeaders.parse("prefetch-count:50").ackMode()).isNull();
    }

    @Test
    void anIdIsTheUsersOwn() {
        assertThat(SubscribeHeaders.parse("id:sub-{{userNumber}}").hasId()).isTrue();
        assertThat(SubscribeHeaders.parse("x-id:1").hasId()).isFalse();
    }
}
