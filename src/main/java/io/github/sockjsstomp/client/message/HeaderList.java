package io.github.sockjsstomp.client.message;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Parses STOMP headers written on one line as JMeter parameters are: {@code name:value;name2:value2}. */
public final class HeaderList {

    private HeaderList() {}

    /** Header names whose values are secrets: shown as {@value #HIDDEN} wherever headers are shown. */
    private static final Set<String> SECRET_NAMES = Set.of(
            "passcode", "authorization", "proxy-authorization", "cookie", "set-cookie", "x-auth-token", "x-api-key");

    public static final String HIDDEN = "***";

    /**
     * Pairs are separated by ';' or newlines; a pair's first ':' splits name from value. A part after a ';'
     * that has no ':' continues the previous value, so {@code content-type:text/plain;charset=UTF-8} is one
     * header.
     *
     * @throws IllegalArgumentException quoting a pair without a name or a ':'
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return headers;
        }
        String last = null;
        for (String line : text.split("\\n")) {
            for (String pair : line.split(";")) {
                if (pair.isBlank()) {
                    continue;
                }
                int colon = pair.indexOf(':');
                if (colon < 0 && last != null) {
                    headers.put(last, headers.get(last) + ";" + pair);
                    continue;
                }
                if (colon <= 0 || pair.substring(0, colon).isBlank()) {
                    throw new IllegalArgumentException("'" + pair.trim() + "' is not a header; expected name:value");
                }
                last = pair.substring(0, colon).trim();
                headers.put(last, pair.substring(colon + 1).trim());
            }
            last = null;
        }
        headers.replaceAll((name, value) -> value.strip());
        return headers;
    }

    public static boolean isSecret(String name) {
        return SECRET_NAMES.contains(name.toLowerCase(Locale.ROOT));
    }

    /** name:value lines for people to read, with secret values hidden. */
    public static String describe(Map<String, ? extends Iterable<String>> headers) {
        StringBuilder out = new StringBuilder();
        headers.forEach((name, values) -> {
            for (String value : values) {
                out.append(name)
                        .append(':')
                        .append(isSecret(name) ? HIDDEN : value)
                        .append('\n');
            }
        });
        return out.toString();
    }
}
