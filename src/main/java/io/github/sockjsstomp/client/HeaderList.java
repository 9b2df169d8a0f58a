package io.github.sockjsstomp.client;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses STOMP headers written on one line as JMeter parameters are: {@code name:value;name2:value2}. */
public final class HeaderList {

    private HeaderList() {
    }

    /**
     * Pairs are separated by ';' or newlines; a pair's first ':' splits name from value.
     *
     * @throws IllegalArgumentException quoting a pair without a name or a ':'
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return headers;
        }
        for (String pair : text.split("[;\\n]")) {
            if (pair.isBlank()) {
                continue;
            }
            int colon = pair.indexOf(':');
            if (colon <= 0 || pair.substring(0, colon).isBlank()) {
                throw new IllegalArgumentException("'" + pair.trim() + "' is not a header; expected name:value");
            }
            headers.put(pair.substring(0, colon).trim(), pair.substring(colon + 1).trim());
        }
        return headers;
    }
}
