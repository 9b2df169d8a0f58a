package io.github.sockjsstomp.client.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.client.UserSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsersFileTest {

    @Test
    void userNGetsLineNWrappingAroundSkippingHeaderAndComments(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("users.csv");
        Files.writeString(
                file, "login,passcode\n# ops accounts\nalice,a-pass\n\nbob,b,pass\ncarol\n", StandardCharsets.UTF_8);
        UsersFile users = UsersFile.read(file);
        assertThat(users.user(1)).isEqualTo(new UserSettings.Credentials("alice", "a-pass"));
        assertThat(users.user(2)).isEqualTo(new UserSettings.Credentials("bob", "b,pass"));
        assertThat(users.user(3)).isEqualTo(new UserSettings.Credentials("carol", ""));
        assertThat(users.user(4).login()).isEqualTo("alice");
        assertThat(users.user(2).toString()).doesNotContain("b,pass");
    }

    @Test
    void aFileThatCannotBeUsedSaysWhy(@TempDir Path dir) throws Exception {
        Path empty = dir.resolve("empty.csv");
        Files.writeString(empty, "login,passcode\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> UsersFile.read(empty)).hasMessageContaining("no login,passcode lines");
        assertThatThrownBy(() -> UsersFile.read(dir.resolve("missing.csv"))).hasMessageContaining("cannot be read");
        Path noLogin = dir.resolve("nologin.csv");
        Files.writeString(noLogin, "alice,a\n,b\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> UsersFile.read(noLogin)).hasMessageContaining("line 2 has no login");
    }
}
