package io.github.sockjsstomp.client;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.web.client.RestClientResponseException;

/**
 * A failure as a JMeter user filters on it: a short code (an HTTP status when the server refused, otherwise
 * a word such as ConnectTimeout) and a message that says what happened.
 */
public record Failure(String code, String message) {

    public static final String CONNECT_TIMEOUT = "ConnectTimeout";
    public static final String CONNECT_FAILED = "ConnectFailed";
    public static final String CONNECTION_REFUSED = "ConnectionRefused";
    public static final String UNKNOWN_HOST = "UnknownHost";
    public static final String READ_TIMEOUT = "ReadTimeout";
    public static final String STOMP_ERROR = "StompError";
    public static final String IO_ERROR = "IOError";
    /** A session that was up and is gone: closed by the server or the network, or its heart-beats stopped. */
    public static final String CONNECTION_LOST = "ConnectionLost";

    public static final String NOT_CONNECTED = "NotConnected";

    /** Tomcat reports a refused upgrade as "The HTTP response from the server [403] did not permit ...". */
    private static final Pattern TOMCAT_STATUS = Pattern.compile("HTTP response from the server \\[(\\d{3})]");

    public static Failure of(Throwable thrown) {
        Throwable t = unwrap(thrown);
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            if (cause instanceof RestClientResponseException rest) {
                return new Failure(
                        Integer.toString(rest.getStatusCode().value()),
                        "HTTP " + rest.getStatusCode().value() + " " + rest.getStatusText());
            }
            Matcher matcher = TOMCAT_STATUS.matcher(String.valueOf(cause.getMessage()));
            if (matcher.find()) {
                return new Failure(matcher.group(1), "Handshake refused with HTTP " + matcher.group(1));
            }
            if (cause instanceof TimeoutException) {
                return new Failure(CONNECT_TIMEOUT, describe(t));
            }
            if (cause instanceof ConnectException) {
                return new Failure(CONNECTION_REFUSED, describe(cause));
            }
            if (cause instanceof UnknownHostException) {
                return new Failure(UNKNOWN_HOST, describe(cause));
            }
            if (cause instanceof SocketTimeoutException) {
                return new Failure(READ_TIMEOUT, describe(cause));
            }
            if (cause instanceof InterruptedIOException) {
                return new Failure("Interrupted", describe(cause));
            }
        }
        return new Failure(CONNECT_FAILED, describe(t));
    }

    static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof ExecutionException || current instanceof CompletionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** "SimpleName: message", followed by the root cause when it says something else. */
    public static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        if (root != t && root.getMessage() != null && !text.contains(root.getMessage())) {
            text += " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        }
        return text;
    }

    /** An ERROR frame as users read it: the message header, then the body; either may be missing. */
    public static String describeStompError(StompHeaders headers, byte[] body) {
        String message = headers.getFirst("message");
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8).strip();
        if (message == null || message.isBlank()) {
            return text.isEmpty() ? "ERROR frame without message or body" : text;
        }
        return text.isEmpty() || text.equals(message) ? message : message + ": " + text;
    }
}
