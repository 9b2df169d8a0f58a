package io.github.sockjsstomp.client.login;

import io.github.sockjsstomp.client.UserSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Credentials for brokers that know their users: a UTF-8 file with one {@code login,passcode} line per user
 * (everything after the first comma is the passcode; blank lines and lines starting with # are skipped; a
 * first line {@code login,passcode} is a header). Virtual user n takes line n, wrapping around when there are
 * more users than lines. A run reads each file once, and thousands of threads share that copy.
 */
public final class UsersFile {

    private final Path path;
    private final List<UserSettings.Credentials> users;

    private UsersFile(Path path, List<UserSettings.Credentials> users) {
        this.path = path;
        this.users = users;
    }

    /** @throws IllegalArgumentException saying why the file cannot be used */
    public static UsersFile read(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot be read: " + e);
        }
        List<UserSettings.Credentials> users = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            boolean header = users.isEmpty() && line.equalsIgnoreCase("login,passcode");
            if (line.isEmpty() || line.startsWith("#") || header) {
                continue;
            }
            int comma = line.indexOf(',');
            String login = (comma < 0 ? line : line.substring(0, comma)).strip();
            if (login.isEmpty()) {
                throw new IllegalArgumentException("line " + (i + 1) + " has no login");
            }
            users.add(new UserSettings.Credentials(login, comma < 0 ? "" : line.substring(comma + 1)));
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("has no login,passcode lines");
        }
        return new UsersFile(path, List.copyOf(users));
    }

    /** The credentials of virtual user number {@code userNumber} (from 1). */
    public UserSettings.Credentials user(int userNumber) {
        return users.get(Math.floorMod(userNumber - 1, users.size()));
    }

    @Override
    public String toString() {
        return "UsersFile[" + path + ", " + users.size() + " users]";
    }
}
