package io.github.sockjsstomp.client.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TemplateTest {

    private static final UserSettings ALICE = new UserSettings(
            "senders #1201",
            12,
            1201,
            new UserSettings.Credentials("alice", ""),
            new UserSettings.Server("http", "localhost", 8080, "/ws", Transport.WEBSOCKET),
            WebLogin.NONE,
            new UserSettings.ConnectOptions(Map.of(), 0, 1000));

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "hello|hello",
                "{{msgId}}|m1-7",
                "{\"id\":\"{{msgId}}\",\"seq\":{{seq}}}|{\"id\":\"m1-7\",\"seq\":3}",
                "{{login}}@{{thread}}|alice@12",
                "{{user}}|senders #1201",
                "queue.{{userNumber}}|queue.1201",
                "{{ seq }}-{{seq}}|3-3",
                "at {{sentAt}}|at 1700000000000",
                "{single} braces {stay}|{single} braces {stay}",
                "\\{{literal}} and {{seq}}|{{literal}} and 3",
            })
    void aPayloadRendersEveryPlaceholder(String source, String expected) {
        Template template = Template.parse(source, Template.PAYLOAD);
        assertThat(template.render(Template.of(ALICE, "m1-7", 3, 1_700_000_000_000L)))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "guest|guest",
                "/queue/echo.{{userNumber}}|/queue/echo.1201",
                "{{login}}@{{thread}}/{{ userNumber }}|alice@12/1201",
            })
    void aDestinationRendersItsUsersValues(String source, String expected) {
        assertThat(Template.parse(source, Template.DESTINATION).render(Template.of(ALICE)))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{{nope}}|PAYLOAD|unknown placeholder {{nope}}",
                "x {{msgId|PAYLOAD|unclosed placeholder at '{{msgId'",
                "user-{{login}}|LOGIN|unknown placeholder {{login}}",
                "user-{{msgId}}|LOGIN|unknown placeholder {{msgId}}",
                "user-{{session}}|LOGIN|unknown placeholder {{session}}; it is now {{userNumber}}",
                "/queue/{{msgId}}|DESTINATION|known here: [{{login}}, {{thread}}, {{user}}, {{userNumber}}]",
            })
    void unknownOrUnclosedPlaceholdersAreRefusedQuotingThem(String source, String where, String message) {
        Set<String> allowed = switch (where) {
            case "LOGIN" -> Template.LOGIN;
            case "DESTINATION" -> Template.DESTINATION;
            default -> Template.PAYLOAD;
        };
        assertThatThrownBy(() -> Template.parse(source, allowed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"{{msgId}}|''"})
    void renderWithoutAnIdLeavesItEmpty(String source, String expected) {
        assertThat(Template.parse(source, Template.PAYLOAD).render(Template.of(ALICE, null, 1, 0)))
                .isEqualTo(expected);
    }
}
