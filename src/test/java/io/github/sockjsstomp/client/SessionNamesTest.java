package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SessionNamesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "guest|guest",
        "user-{{session}}|user-1201",
        "/queue/echo.{{session}}|/queue/echo.1201",
        "{{user}}@{{thread}}/{{ session }}|alice@13/1201",
        "{single}|{single}",
    })
    void expandReplacesEveryPlaceholder(String text, String expected) {
        SessionNames.check(text, SessionNames.DESTINATION_PLACEHOLDERS);
        assertThat(SessionNames.expand(text, 1201, 13, "alice")).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "user-{{user}}|unknown placeholder {{user}}",
        "user-{{msgId}}|unknown placeholder {{msgId}}",
        "user-{{session|unclosed placeholder at '{{session'",
    })
    void loginsRejectPlaceholdersTheyCannotHaveQuotingThem(String text, String message) {
        assertThatThrownBy(() -> SessionNames.check(text, SessionNames.LOGIN_PLACEHOLDERS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @Test
    void usersFileGivesUserNItsLineWrappingAroundAndSkipsHeaderAndComments(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("users.csv");
        Files.writeString(file, "login,passcode\n# ops accounts\nalice,a-pass\n\nbob,b,pass\ncarol\n",
                StandardCharsets.UTF_8);
        UsersFile users = UsersFile.load(file);
        assertThat(users.size()).isEqualTo(3);
        assertThat(users.user(1)).isEqualTo(new UsersFile.Credentials("alice", "a-pass"));
        assertThat(users.user(2)).isEqualTo(new UsersFile.Credentials("bob", "b,pass"));
        assertThat(users.user(3)).isEqualTo(new UsersFile.Credentials("carol", ""));
        assertThat(users.user(4).login()).isEqualTo("alice");
        assertThat(users.user(2).toString()).doesNotContain("b,pass");
    }

    @Test
    void usersFileThatCannotBeUsedSaysWhy(@TempDir Path dir) throws Exception {
        Path empty = dir.resolve("empty.csv");
        Files.writeString(empty, "login,passcode\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> UsersFile.load(empty)).hasMessageContaining("no login,passcode lines");
        assertThatThrownBy(() -> UsersFile.load(dir.resolve("missing.csv"))).hasMessageContaining("cannot be read");
        Path noLogin = dir.resolve("nologin.csv");
        Files.writeString(noLogin, "alice,a\n,b\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> UsersFile.load(noLogin)).hasMessageContaining("line 2 has no login");
    }
}
