package io.github.sockjsstomp.client;

import java.util.Set;

/**
 * Names that differ per virtual user: a login such as {@code user-{{session}}}, or a destination such as
 * {@code /queue/echo.{{session}}}, so each user of a broker gets its own login or queue from one plan value.
 * {@code {{session}}} is the user's number across its thread group (thread n, session k of s per thread:
 * (n - 1) * s + k), {@code {{thread}}} the JMeter thread number, {@code {{user}}} the user's name.
 */
public final class SessionNames {

    /** Placeholders a login may use: the name is not known yet while the login is being made. */
    public static final Set<String> LOGIN_PLACEHOLDERS = Set.of("session", "thread");
    public static final Set<String> DESTINATION_PLACEHOLDERS = Set.of("session", "thread", "user");

    private SessionNames() {
    }

    /** @throws IllegalArgumentException naming an unknown or unclosed placeholder */
    public static void check(String text, Set<String> allowed) {
        int from = 0;
        while (true) {
            int open = text.indexOf("{{", from);
            if (open < 0) {
                return;
            }
            int close = text.indexOf("}}", open + 2);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed placeholder at '" + text.substring(open) + "'");
            }
            String name = text.substring(open + 2, close).trim();
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException("unknown placeholder {{" + name + "}}; known here: "
                        + allowed.stream().sorted().map(p -> "{{" + p + "}}").toList());
            }
            from = close + 2;
        }
    }

    public static boolean hasPlaceholder(String text) {
        return text.contains("{{");
    }

    /** Replaces the placeholders; text checked with {@link #check} first. */
    public static String expand(String text, int session, int thread, String user) {
        if (!hasPlaceholder(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        int from = 0;
        while (true) {
            int open = text.indexOf("{{", from);
            int close = open < 0 ? -1 : text.indexOf("}}", open + 2);
            if (close < 0) {
                return out.append(text, from, text.length()).toString();
            }
            out.append(text, from, open);
            switch (text.substring(open + 2, close).trim()) {
                case "session" -> out.append(session);
                case "thread" -> out.append(thread);
                case "user" -> out.append(user);
                default -> out.append(text, open, close + 2);
            }
            from = close + 2;
        }
    }
}
