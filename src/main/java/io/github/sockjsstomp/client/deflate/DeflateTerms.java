package io.github.sockjsstomp.client.deflate;

import jakarta.websocket.Extension;
import java.util.List;

/**
 * What the server's handshake response agreed to (RFC 7692, section 7): whether it keeps its compression context
 * from message to message, the window it compresses with, and the window it lets the client use.
 *
 * @param serverContextTakeover false when the server resets its compressor after each message
 *     ({@code server_no_context_takeover}): nothing needs to be remembered between messages
 * @param serverWindowBits the server's LZ77 window ({@code server_max_window_bits}, 15 by default)
 * @param clientWindowBits the window the client may use ({@code client_max_window_bits}, 15 by default)
 */
record DeflateTerms(boolean serverContextTakeover, int serverWindowBits, int clientWindowBits) {

    static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";
    static final int MAX_WINDOW_BITS = 15;
    private static final int MIN_WINDOW_BITS = 8;

    /**
     * The terms of a server's answer; null when it is not one a client may accept (an unknown or repeated parameter, a
     * window out of range), which fails the handshake as the RFC requires. {@code client_no_context_takeover} asks
     * nothing of this client, which never compresses a message against another.
     */
    static DeflateTerms of(List<Extension.Parameter> answer) {
        boolean serverContextTakeover = true;
        int serverWindowBits = -1;
        int clientWindowBits = -1;
        boolean clientNoContext = false;
        for (Extension.Parameter parameter : answer) {
            String name = parameter.getName();
            String value = parameter.getValue();
            switch (name) {
                case SERVER_NO_CONTEXT_TAKEOVER -> {
                    if (!serverContextTakeover || hasValue(value)) {
                        return null;
                    }
                    serverContextTakeover = false;
                }
                case CLIENT_NO_CONTEXT_TAKEOVER -> {
                    if (clientNoContext || hasValue(value)) {
                        return null;
                    }
                    clientNoContext = true;
                }
                case SERVER_MAX_WINDOW_BITS -> {
                    if (serverWindowBits != -1) {
                        return null;
                    }
                    serverWindowBits = windowBits(value);
                }
                case CLIENT_MAX_WINDOW_BITS -> {
                    if (clientWindowBits != -1) {
                        return null;
                    }
                    // a server answers with a value; none is read as the most, as Tomcat's client does
                    clientWindowBits = hasValue(value) ? windowBits(value) : MAX_WINDOW_BITS;
                }
                default -> {
                    return null;
                }
            }
            if (serverWindowBits == 0 || clientWindowBits == 0) {
                return null;
            }
        }
        return new DeflateTerms(
                serverContextTakeover,
                serverWindowBits == -1 ? MAX_WINDOW_BITS : serverWindowBits,
                clientWindowBits == -1 ? MAX_WINDOW_BITS : clientWindowBits);
    }

    private static boolean hasValue(String value) {
        return value != null && !value.isEmpty();
    }

    /** The bits a window parameter gives (a token, or a quoted string as RFC 7692 allows), or 0 when not one. */
    private static int windowBits(String value) {
        String bits = value != null && value.length() > 1 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
        if (bits == null || bits.isEmpty() || bits.length() > 2) {
            return 0;
        }
        try {
            int parsed = Integer.parseInt(bits);
            return parsed >= MIN_WINDOW_BITS && parsed <= MAX_WINDOW_BITS ? parsed : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
