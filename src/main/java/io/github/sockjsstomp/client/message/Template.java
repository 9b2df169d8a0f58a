package io.github.sockjsstomp.client.message;

import io.github.sockjsstomp.client.UserSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A text with {@code {{name}}} placeholders (a login, a destination, a message body), parsed once and rendered
 * per virtual user or per message. The one place placeholders are parsed: every value that takes them says
 * which it allows, and an unknown or unclosed one is an error that quotes it. Double braces keep clear of
 * JMeter's own {@code ${...}}, which JMeter has replaced by the time a value arrives here; <code>\{{</code> stands
 * for literal braces.
 */
public final class Template {

    /** Placeholders a login may use: the login is being made, so nothing that depends on it. */
    public static final Set<String> LOGIN = Set.of("userNumber", "thread");
    /** Placeholders a bearer token may use: a users file's second column can hold each user's token. */
    public static final Set<String> TOKEN = Set.of("userNumber", "thread", "login", "passcode");
    /** Placeholders a destination may use. */
    public static final Set<String> DESTINATION = Set.of("userNumber", "thread", "user", "login");
    /** Placeholders a message body may use. */
    public static final Set<String> PAYLOAD = Set.of("msgId", "seq", "thread", "userNumber", "user", "login", "sentAt");

    private static final Map<String, String> RENAMED = Map.of("session", "userNumber");
    private static final String LITERAL = "\\{{";

    private final String source;
    /** Alternating literal text and placeholder names; even indexes are literals. */
    private final String[] parts;

    private Template(String source, String[] parts) {
        this.source = source;
        this.parts = parts;
    }

    /** The text as it was given, placeholders and all. */
    public String source() {
        return source;
    }

    /** @throws IllegalArgumentException naming an unknown or unclosed placeholder */
    public static Template parse(String source, Set<String> allowed) {
        List<String> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int from = 0;
        while (true) {
            int open = source.indexOf("{{", from);
            if (open < 0) {
                parts.add(literal.append(source, from, source.length()).toString());
                return new Template(source, parts.toArray(String[]::new));
            }
            if (open > 0 && source.startsWith(LITERAL, open - 1)) {
                literal.append(source, from, open - 1).append("{{");
                from = open + 2;
                continue;
            }
            int close = source.indexOf("}}", open + 2);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed placeholder at '" + source.substring(open) + "'");
            }
            String name = source.substring(open + 2, close).trim();
            check(name, allowed);
            parts.add(literal.append(source, from, open).toString());
            literal.setLength(0);
            parts.add(name);
            from = close + 2;
        }
    }

    private static void check(String name, Set<String> allowed) {
        if (allowed.contains(name)) {
            return;
        }
        String renamed = RENAMED.get(name);
        String hint = renamed != null ? "; it is now {{" + renamed + "}}" : "";
        throw new IllegalArgumentException("unknown placeholder {{" + name + "}}" + hint + "; known here: "
                + new TreeSet<>(allowed).stream().map(p -> "{{" + p + "}}").toList() + " (\\{{ for literal braces)");
    }

    /** Whether any placeholder is in it: a template with none renders the same for every user. */
    public boolean hasPlaceholders() {
        return parts.length > 1;
    }

    /** The text with every placeholder replaced by its value. */
    public String render(Values values) {
        if (parts.length == 1) {
            return parts[0];
        }
        StringBuilder out = new StringBuilder(parts[0].length() + 64);
        for (int i = 0; i < parts.length; i++) {
            if (i % 2 == 0) {
                out.append(parts[i]);
            } else {
                values.append(parts[i], out);
            }
        }
        return out.toString();
    }

    /** What the placeholders stand for; only the names a template was parsed with are asked for. */
    @FunctionalInterface
    public interface Values {
        void append(String name, StringBuilder out);
    }

    /** A virtual user's values: its number, thread, name and login. */
    public static Values of(UserSettings user) {
        return (name, out) -> appendUser(user, name, out);
    }

    /** A message's values, on top of its user's. */
    public static Values of(UserSettings user, String msgId, long seq, long sentAtMillis) {
        return (name, out) -> {
            switch (name) {
                case "msgId" -> out.append(msgId == null ? "" : msgId);
                case "seq" -> out.append(seq);
                case "sentAt" -> out.append(sentAtMillis);
                default -> appendUser(user, name, out);
            }
        };
    }

    private static void appendUser(UserSettings user, String name, StringBuilder out) {
        switch (name) {
            case "userNumber" -> out.append(user.number());
            case "thread" -> out.append(user.threadNumber());
            case "user" -> out.append(user.name());
            case "login" -> out.append(user.credentials().login());
            default -> throw new IllegalStateException("no value for {{" + name + "}}");
        }
    }

    @Override
    public String toString() {
        return "Template[" + source + "]";
    }
}
