package io.github.sockjsstomp.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A message body with placeholders, compiled once and rendered per message: {@code {{msgId}}},
 * {@code {{seq}}} (the user's message sequence number, from 1), {@code {{thread}}} (the JMeter thread
 * number), {@code {{session}}} (the virtual user's number, see {@link SessionNames}), {@code {{user}}} and {@code {{sentAt}}} (wall-clock milliseconds). Double braces keep clear of
 * JMeter's own {@code ${...}}, which JMeter has already replaced by the time the template arrives here.
 */
public final class PayloadTemplate {

    public static final Set<String> PLACEHOLDERS = Set.of("msgId", "seq", "thread", "session", "user", "sentAt");

    private final String source;
    /** Alternating literal text and placeholder names; even indexes are literals. */
    private final String[] parts;

    private PayloadTemplate(String source, String[] parts) {
        this.source = source;
        this.parts = parts;
    }

    /** @throws IllegalArgumentException naming an unknown or unclosed placeholder */
    public static PayloadTemplate compile(String source) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        while (true) {
            int open = source.indexOf("{{", from);
            if (open < 0) {
                parts.add(source.substring(from));
                break;
            }
            int close = source.indexOf("}}", open + 2);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed placeholder at '" + source.substring(open) + "'");
            }
            String name = source.substring(open + 2, close).trim();
            if (!PLACEHOLDERS.contains(name)) {
                throw new IllegalArgumentException("unknown placeholder {{" + name + "}}; known: " + PLACEHOLDERS);
            }
            parts.add(source.substring(from, open));
            parts.add(name);
            from = close + 2;
        }
        return new PayloadTemplate(source, parts.toArray(String[]::new));
    }

    public String source() {
        return source;
    }

    public String render(String msgId, long seq, int thread, int session, String user, long sentAtMillis) {
        if (parts.length == 1) {
            return parts[0];
        }
        StringBuilder out = new StringBuilder(source.length() + 32);
        for (int i = 0; i < parts.length; i++) {
            if (i % 2 == 0) {
                out.append(parts[i]);
                continue;
            }
            switch (parts[i]) {
                case "msgId" -> out.append(msgId == null ? "" : msgId);
                case "seq" -> out.append(seq);
                case "thread" -> out.append(thread);
                case "session" -> out.append(session);
                case "user" -> out.append(user);
                case "sentAt" -> out.append(sentAtMillis);
                default -> throw new IllegalStateException("compiled an unknown placeholder " + parts[i]);
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "PayloadTemplate[" + source + "]";
    }
}
