package io.github.sockjsstomp.client;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a virtual user reaches the STOMP endpoint. Each named kind is used alone: there is no silent fallback;
 * {@code auto} asks the endpoint once which it is (see {@code client.wiring.TransportProbe}).
 */
public enum Transport {
    /** SockJS's websocket where the endpoint's /info answers as SockJS, a plain WebSocket where it is a 404. */
    AUTO("auto", false),
    /** SockJS over a WebSocket (SockJS's first choice). */
    WEBSOCKET("websocket", true),
    /** SockJS over an XHR streaming GET plus one POST per send: a thread per session, for fallback tests. */
    XHR_STREAMING("xhr-streaming", true),
    /** SockJS over XHR long polling: a thread per session, for fallback tests. */
    XHR("xhr", true),
    /** STOMP straight over a WebSocket, no SockJS (RabbitMQ, ActiveMQ, Spring endpoints without SockJS). */
    RAW("raw", false);

    private final String parameterValue;
    private final boolean sockJs;

    Transport(String parameterValue, boolean sockJs) {
        this.parameterValue = parameterValue;
        this.sockJs = sockJs;
    }

    public String parameterValue() {
        return parameterValue;
    }

    public boolean isSockJs() {
        return sockJs;
    }

    public static String allowedValues() {
        return Arrays.stream(values()).map(Transport::parameterValue).collect(Collectors.joining(" | "));
    }

    /** @throws IllegalArgumentException quoting the value and the allowed ones */
    public static Transport fromParameter(String value) {
        String trimmed = value == null ? "" : value.trim();
        for (Transport t : values()) {
            if (t.parameterValue.equalsIgnoreCase(trimmed)) {
                return t;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a transport; expected " + allowedValues());
    }

    @Override
    public String toString() {
        return parameterValue;
    }
}
