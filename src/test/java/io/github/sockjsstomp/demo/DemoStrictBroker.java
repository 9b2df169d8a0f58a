package io.github.sockjsstomp.demo;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * A strict broker on the raw WebSocket endpoint {@value #ENDPOINT}: it answers what it refuses with an ERROR
 * frame and, unlike Spring's simple broker, keeps the connection open afterwards, as some brokers do. That is
 * the case where a client that only learns of the ERROR from the closing socket waits for its timeout.
 *
 * <ul>
 * <li>CONNECT with passcode {@value #SILENT_PASSCODE}: no answer at all (a stalled broker).</li>
 * <li>CONNECT with passcode {@value #REJECT_PASSCODE}: ERROR {@code message:Bad CONNECT}, body "Access refused
 * for user '&lt;login&gt;'"; with {@value #REJECT_BARE_PASSCODE}: an ERROR with neither message nor body.</li>
 * <li>SUBSCRIBE to {@value #FORBIDDEN_DESTINATION}: ERROR {@code message:Access denied}.</li>
 * <li>SEND to {@value #FAIL_DESTINATION}: ERROR {@code message:Bad SEND}, the body quoted; to
 * {@value #FAIL_BARE_DESTINATION}: a bare ERROR; to a destination under {@value #UNKNOWN_PREFIX}: RabbitMQ's ERROR
 * for a destination it does not know ({@code message:Unknown destination}, naming no message).</li>
 * <li>An ERROR answering a frame that asked for a receipt carries its {@code receipt-id}, as STOMP 1.2 says it
 * should.</li>
 * <li>Any other SEND: a MESSAGE with the same headers and body to each of the session's subscriptions of that
 * destination (an echo, empty bodies included).</li>
 * </ul>
 */
@Configuration
@EnableWebSocket
class DemoStrictBroker implements WebSocketConfigurer {

    static final String ENDPOINT = "/stomp-strict";
    static final String REJECT_PASSCODE = "reject-open";
    static final String REJECT_BARE_PASSCODE = "reject-bare";
    static final String FORBIDDEN_DESTINATION = "/queue/forbidden";
    static final String FAIL_DESTINATION = "/app/fail";
    static final String FAIL_BARE_DESTINATION = "/app/fail-bare";
    static final String UNKNOWN_PREFIX = "/unknown/";
    static final String SILENT_PASSCODE = "no-answer";

    /** Connections open on this endpoint, across the JVM's demo servers. */
    static final AtomicInteger OPEN_SESSIONS = new AtomicInteger();

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(new Handler(), ENDPOINT).setAllowedOriginPatterns("*");
    }

    static final class Handler extends TextWebSocketHandler {

        /** Per session: destination to subscription id. */
        private final Map<String, Map<String, String>> subscriptions = new ConcurrentHashMap<>();

        @Override
        protected void handleTextMessage(WebSocketSession session, TextMessage message) throws IOException {
            String text = message.getPayload();
            int from = 0;
            while (from < text.length()) {
                while (from < text.length() && (text.charAt(from) == '\n' || text.charAt(from) == '\r')) {
                    from++; // heart-beats
                }
                int end = text.indexOf('\0', from);
                if (from >= text.length() || end < 0) {
                    return;
                }
                handleFrame(session, text.substring(from, end));
                from = end + 1;
            }
        }

        private void handleFrame(WebSocketSession session, String frame) throws IOException {
            int headersEnd = frame.indexOf("\n\n");
            String head = headersEnd < 0 ? frame : frame.substring(0, headersEnd);
            String body = headersEnd < 0 ? "" : frame.substring(headersEnd + 2);
            String[] lines = head.split("\n");
            String command = lines[0].strip();
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.putIfAbsent(lines[i].substring(0, colon), lines[i].substring(colon + 1));
                }
            }
            Map<String, String> subs = subscriptions.computeIfAbsent(session.getId(), id -> new ConcurrentHashMap<>());
            String destination = headers.getOrDefault("destination", "");
            switch (command) {
                case "CONNECT", "STOMP" -> {
                    String passcode = headers.getOrDefault("passcode", "");
                    if (SILENT_PASSCODE.equals(passcode)) {
                        return;
                    }
                    if (REJECT_PASSCODE.equals(passcode)) {
                        send(
                                session,
                                "ERROR\nmessage:Bad CONNECT\ncontent-type:text/plain\n\nAccess refused for user '"
                                        + headers.getOrDefault("login", "") + "'");
                    } else if (REJECT_BARE_PASSCODE.equals(passcode)) {
                        send(session, "ERROR\n\n");
                    } else {
                        send(session, "CONNECTED\nversion:1.2\nheart-beat:0,0\n\n");
                    }
                }
                case "SUBSCRIBE" -> {
                    if (FORBIDDEN_DESTINATION.equals(destination)) {
                        send(session, "ERROR\nmessage:Access denied\n\nSubscription to " + destination + " refused");
                    } else {
                        subs.put(destination, headers.getOrDefault("id", "0"));
                    }
                }
                case "SEND" -> {
                    String receiptId =
                            headers.containsKey("receipt") ? "receipt-id:" + headers.get("receipt") + "\n" : "";
                    if (FAIL_DESTINATION.equals(destination)) {
                        send(session, "ERROR\nmessage:Bad SEND\n" + receiptId + "\nRefused: " + body);
                    } else if (destination.startsWith(UNKNOWN_PREFIX)) {
                        send(
                                session,
                                "ERROR\nmessage:Unknown destination\ncontent-type:text/plain\n" + receiptId + "\n'"
                                        + destination + "' is not a valid destination.\nValid destination types are: "
                                        + "/temp-queue, /exchange, /topic, /queue, /amq/queue, /reply-queue/.\n");
                    } else if (FAIL_BARE_DESTINATION.equals(destination)) {
                        send(session, "ERROR\n\n");
                    } else if (subs.containsKey(destination)) {
                        StringBuilder out = new StringBuilder("MESSAGE\nsubscription:")
                                .append(subs.get(destination))
                                .append("\nmessage-id:")
                                .append(System.nanoTime());
                        headers.forEach((name, value) -> {
                            if (!name.equals("content-length") && !name.equals("receipt")) {
                                out.append('\n').append(name).append(':').append(value);
                            }
                        });
                        send(session, out.append("\n\n").append(body).toString());
                    }
                }
                case "DISCONNECT" -> {
                    String receipt = headers.get("receipt");
                    if (receipt != null) {
                        send(session, "RECEIPT\nreceipt-id:" + receipt + "\n\n");
                    }
                    session.close(CloseStatus.NORMAL);
                }
                default -> send(session, "ERROR\nmessage:Unknown command " + command + "\n\n");
            }
        }

        private static void send(WebSocketSession session, String frame) throws IOException {
            synchronized (session) {
                if (session.isOpen()) {
                    session.sendMessage(new TextMessage(frame + "\0"));
                }
            }
        }

        @Override
        public void afterConnectionEstablished(WebSocketSession session) {
            OPEN_SESSIONS.incrementAndGet();
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
            OPEN_SESSIONS.decrementAndGet();
            subscriptions.remove(session.getId());
        }
    }
}
