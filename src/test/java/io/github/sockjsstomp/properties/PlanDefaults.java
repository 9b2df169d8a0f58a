package io.github.sockjsstomp.properties;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The defaults each plan of jmx/ gives its properties: the second argument of every {@code __P(name,default)}
 * (JMeter's own default, {@code 1}, when there is none), unescaped as JMeter reads it. A default that is itself
 * a JMeter expression is kept as written; {@link #isComputed} tells it.
 */
public final class PlanDefaults {

    private PlanDefaults() {}

    /** Plan (file name without .jmx) to property to every default the plan writes for it. */
    public static Map<String, Map<String, Set<String>>> of(Path jmxDir) throws IOException {
        Map<String, Map<String, Set<String>>> plans = new TreeMap<>();
        try (Stream<Path> files = Files.list(jmxDir)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".jmx")).toList()) {
                String plan = file.getFileName().toString().replaceFirst("\\.jmx$", "");
                plans.put(plan, in(Files.readString(file, StandardCharsets.UTF_8)));
            }
        }
        return plans;
    }

    static Map<String, Set<String>> in(String xml) {
        String text = xml.replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
        Map<String, Set<String>> defaults = new TreeMap<>();
        int at = 0;
        while ((at = next(text, at)) >= 0) {
            int open = text.indexOf('(', at);
            int close = matching(text, open);
            String args = text.substring(open + 1, close);
            int comma = topLevelComma(args);
            String name = (comma < 0 ? args : args.substring(0, comma)).strip();
            String value = comma < 0 ? "1" : unescape(args.substring(comma + 1));
            defaults.computeIfAbsent(name, n -> new TreeSet<>()).add(value);
            at = open + 1;
        }
        return defaults;
    }

    public static boolean isComputed(String value) {
        return value.contains("${");
    }

    private static int next(String text, int from) {
        int p = text.indexOf("__P(", from);
        int property = text.indexOf("__property(", from);
        if (p < 0) {
            return property;
        }
        return property < 0 ? p : Math.min(p, property);
    }

    private static int matching(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException(
                "unbalanced call at " + text.substring(open, Math.min(text.length(), open + 80)));
    }

    private static int topLevelComma(String args) {
        int depth = 0;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** JMeter's function-argument escapes: {@code \,} is a comma, {@code \\} a backslash. */
    private static String unescape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length() && ",\\)(".indexOf(value.charAt(i + 1)) >= 0) {
                out.append(value.charAt(++i));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
