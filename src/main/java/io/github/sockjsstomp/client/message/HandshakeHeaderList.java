package io.github.sockjsstomp.client.message;

import io.github.sockjsstomp.client.PluginVersion;
import io.github.sockjsstomp.client.UserSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The HTTP headers a user's handshake carries ({@code handshakeHeaders}), on the WebSocket upgrade and on SockJS's
 * requests, as a browser's page would send them: {@code Origin}, the origin of the server's own pages unless the plan
 * gives one (an app served from elsewhere: {@code Origin:https://app.example.com}); a {@code User-Agent} naming the
 * plugin and its version unless the plan gives one; and what else the plan adds. Written {@code name:value;...} as
 * every header list ({@link HeaderList}); values may name the user ({@link Template#DESTINATION}). A header given with
 * no value is not sent ({@code Origin:} sends none, as a client that is no browser).
 */
public final class HandshakeHeaderList implements UserSettings.HandshakeHeaders {

    public static final String ORIGIN = "Origin";
    public static final String USER_AGENT = "User-Agent";

    /** What the plugin's handshakes say they are, unless the plan says otherwise. */
    public static final String PLUGIN_USER_AGENT = PluginVersion.PRODUCT;

    /**
     * What the protocols set or the login keeps: the WebSocket handshake's own headers (an offer of extensions is
     * {@code compression}'s), and the cookies, which come from each user's login steps.
     */
    private static final Set<String> REFUSED = Set.of(
            "host",
            "upgrade",
            "connection",
            "sec-websocket-key",
            "sec-websocket-version",
            "sec-websocket-protocol",
            "sec-websocket-extensions",
            "content-length",
            "cookie");

    private final String source;
    private final Map<String, Template> given;
    private final boolean perUser;
    /** The headers of every user, when none names its user: made once per server origin, not per connect. */
    private volatile Shared shared;

    private record Shared(String origin, Map<String, String> headers) {}

    private HandshakeHeaderList(String source, Map<String, Template> given) {
        this.source = source;
        this.given = given;
        this.perUser = given.values().stream().anyMatch(Template::hasPlaceholders);
    }

    /**
     * @throws IllegalArgumentException quoting a pair without its ':', a header the protocols set or the login keeps,
     *     or a placeholder a header may not use
     */
    public static HandshakeHeaderList parse(String text) {
        Map<String, String> pairs = HeaderList.parse(text);
        Map<String, Template> given = new LinkedHashMap<>();
        pairs.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (REFUSED.contains(lower)) {
                throw new IllegalArgumentException(refusal(name, lower));
            }
            try {
                given.put(name, Template.parse(value, Template.DESTINATION));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
            }
        });
        return new HandshakeHeaderList(text, Collections.unmodifiableMap(given));
    }

    private static String refusal(String name, String lower) {
        return switch (lower) {
            case "sec-websocket-extensions" ->
                name + " is compression's to set: compression=browser (the default) "
                        + "offers what browsers offer, compression=off none, or give the offer itself there";
            case "cookie" ->
                name + " comes from each user's login steps (indexPath, pullPath, formLoginPath), "
                        + "not from the plan";
            default -> name + " is set by the WebSocket handshake itself";
        };
    }

    /** The text as it was given, placeholders and all. */
    public String source() {
        return source;
    }

    /** Origin and User-Agent as a browser's page would send them, replaced or removed by the plan's, then the rest. */
    @Override
    public Map<String, String> of(UserSettings user) {
        String origin = user.server().origin();
        if (!perUser) {
            Shared current = shared;
            if (current == null || !current.origin().equals(origin)) {
                current = new Shared(origin, render(origin, null));
                shared = current;
            }
            return current.headers();
        }
        return render(origin, Template.of(user));
    }

    private Map<String, String> render(String origin, Template.Values values) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(ORIGIN, origin);
        headers.put(USER_AGENT, PLUGIN_USER_AGENT);
        given.forEach((name, value) -> {
            headers.keySet().removeIf(name::equalsIgnoreCase);
            String rendered = values == null ? value.render((placeholder, out) -> {}) : value.render(values);
            if (!rendered.isEmpty()) {
                headers.put(name, rendered);
            }
        });
        return Collections.unmodifiableMap(headers);
    }

    @Override
    public String toString() {
        return "HandshakeHeaderList[" + source + "]";
    }
}
