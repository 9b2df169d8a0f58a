package io.github.sockjsstomp.client.login;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The attributes of the {@code <meta>}, {@code <input>} and {@code <form>} tags of a page, found by a small,
 * tolerant scan rather than an HTML parser: the login and chat pages of real apps are hand-written or
 * templated, and all that matters is a few attributes, in any order, quoted either way or not at all. A tag
 * split by a {@code >} inside an attribute value is beyond it; pages that hand out CSRF tokens do not do that.
 */
final class HtmlTags {

    private static final Pattern ATTRIBUTE =
            Pattern.compile("([^\\s\"'>/=]+)(?:\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'>]+)))?");

    private HtmlTags() {}

    /** The attributes (names lower-cased, values unescaped) of every {@code <tagName ...>} in the page. */
    static List<Map<String, String>> find(String html, String tagName) {
        Pattern tag = Pattern.compile("<" + Pattern.quote(tagName) + "(\\s[^>]*)?>", Pattern.CASE_INSENSITIVE);
        List<Map<String, String>> tags = new ArrayList<>();
        Matcher matcher = tag.matcher(html);
        while (matcher.find()) {
            tags.add(attributes(matcher.group(1) == null ? "" : matcher.group(1)));
        }
        return tags;
    }

    /** The attribute {@code valueAttribute} of the first tag whose {@code name} attribute is {@code name}. */
    static String valueOfNamed(String html, String tagName, String name, String valueAttribute) {
        for (Map<String, String> attributes : find(html, tagName)) {
            if (name.equals(attributes.get("name")) && attributes.containsKey(valueAttribute)) {
                return attributes.get(valueAttribute);
            }
        }
        return null;
    }

    /**
     * The first {@code <form method="post">} of the page, its opening tag's attributes and the text up to its
     * {@code </form>}, or null if there is none.
     */
    static Form firstPostForm(String html) {
        Matcher matcher =
                Pattern.compile("<form(\\s[^>]*)?>", Pattern.CASE_INSENSITIVE).matcher(html);
        while (matcher.find()) {
            Map<String, String> attributes = attributes(matcher.group(1) == null ? "" : matcher.group(1));
            if ("post".equalsIgnoreCase(attributes.getOrDefault("method", ""))) {
                int end = html.toLowerCase(Locale.ROOT).indexOf("</form", matcher.end());
                return new Form(attributes, html.substring(matcher.end(), end < 0 ? html.length() : end));
            }
        }
        return null;
    }

    record Form(Map<String, String> attributes, String body) {}

    static Map<String, String> attributes(String text) {
        Map<String, String> attributes = new LinkedHashMap<>();
        Matcher matcher = ATTRIBUTE.matcher(text);
        while (matcher.find()) {
            String value = matcher.group(2) != null
                    ? matcher.group(2)
                    : matcher.group(3) != null ? matcher.group(3) : matcher.group(4) != null ? matcher.group(4) : "";
            attributes.putIfAbsent(matcher.group(1).toLowerCase(Locale.ROOT), unescape(value));
        }
        return attributes;
    }

    /** The character references templates put in attribute values; others are left as they are. */
    static String unescape(String value) {
        if (value.indexOf('&') < 0) {
            return value;
        }
        return value.replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&#x27;", "'")
                .replace("&#x2F;", "/")
                .replace("&#43;", "+")
                .replace("&#x3D;", "=")
                .replace("&#61;", "=")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
    }
}
