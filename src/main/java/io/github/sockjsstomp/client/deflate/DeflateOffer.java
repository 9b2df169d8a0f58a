package io.github.sockjsstomp.client.deflate;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.web.socket.WebSocketExtension;

/**
 * What a user offers on the WebSocket upgrade ({@code Sec-WebSocket-Extensions}): by default what Chrome, Firefox and
 * Safari offer, so that the server under test keeps per session what browsers make it keep; or nothing; or an offer
 * written out, for servers that differ.
 *
 * @param header the header's value, empty for no offer
 */
public record DeflateOffer(String header) {

    /** Chrome's offer, word for word; Firefox's and Safari's ask the same of the server. */
    public static final DeflateOffer BROWSER = new DeflateOffer("permessage-deflate; client_max_window_bits");

    public static final DeflateOffer OFF = new DeflateOffer("");

    /** The parameter's word for {@link #BROWSER}. */
    public static final String BROWSER_WORD = "browser";
    /** The parameter's word for {@link #OFF}. */
    public static final String OFF_WORD = "off";

    private static final List<String> PARAMETERS = List.of(
            DeflateTerms.SERVER_NO_CONTEXT_TAKEOVER,
            DeflateTerms.CLIENT_NO_CONTEXT_TAKEOVER,
            DeflateTerms.SERVER_MAX_WINDOW_BITS,
            DeflateTerms.CLIENT_MAX_WINDOW_BITS);

    /**
     * {@code browser}, {@code off}, or an offer of permessage-deflate written out
     * ({@code permessage-deflate; client_no_context_takeover}).
     *
     * @throws IllegalArgumentException naming what is wrong with the value
     */
    public static DeflateOffer parse(String value) {
        String trimmed = value.trim();
        String word = trimmed.toLowerCase(Locale.ROOT);
        if (word.equals(BROWSER_WORD)) {
            return BROWSER;
        }
        if (word.equals(OFF_WORD)) {
            return OFF;
        }
        if (!word.startsWith(SessionDeflate.NAME)) {
            throw new IllegalArgumentException("expected browser, off, or an offer that starts with "
                    + SessionDeflate.NAME + " (permessage-deflate; client_no_context_takeover)");
        }
        List<WebSocketExtension> offers;
        try {
            offers = WebSocketExtension.parseExtensions(trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not an extension offer: " + e.getMessage());
        }
        for (WebSocketExtension offer : offers) {
            if (!offer.getName().equals(SessionDeflate.NAME)) {
                throw new IllegalArgumentException(
                        "offers " + offer.getName() + ", and only " + SessionDeflate.NAME + " can be offered");
            }
            for (String parameter : offer.getParameters().keySet()) {
                if (!PARAMETERS.contains(parameter)) {
                    throw new IllegalArgumentException("has the parameter " + parameter + ", which is not one of "
                            + String.join(", ", PARAMETERS));
                }
            }
        }
        return new DeflateOffer(trimmed);
    }

    public boolean offers() {
        return !header.isEmpty();
    }

    /**
     * What the server agreed to, as its answer reads ({@code permessage-deflate; client_max_window_bits=15}), or
     * {@code none}.
     */
    public static String agreed(List<WebSocketExtension> extensions) {
        if (extensions.isEmpty()) {
            return "none";
        }
        return extensions.stream().map(DeflateOffer::describe).collect(Collectors.joining(", "));
    }

    private static String describe(WebSocketExtension extension) {
        StringBuilder text = new StringBuilder(extension.getName());
        extension.getParameters().forEach((name, value) -> {
            text.append("; ").append(name);
            if (value != null && !value.isEmpty()) {
                text.append('=').append(value);
            }
        });
        return text.toString();
    }

    @Override
    public String toString() {
        return offers() ? header : OFF_WORD;
    }
}
