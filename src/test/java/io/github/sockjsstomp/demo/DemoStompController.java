package io.github.sockjsstomp.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.lang.Nullable;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import org.springframework.messaging.simp.user.SimpSession;
import org.springframework.messaging.simp.user.SimpUser;
import org.springframework.messaging.simp.user.SimpUserRegistry;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.messaging.support.NativeMessageHeaderAccessor;
import org.springframework.stereotype.Controller;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.util.HtmlUtils;

/**
 * The STOMP application destinations ({@code /app/...}).
 *
 * <p>Replies are built as {@code Message<byte[]>} and sent with {@link SimpMessagingTemplate#send}, so no message
 * converter touches the payload: echo/chat bytes go back exactly as received, and the reply's content-type is the
 * request's (or {@code application/json} for the server-made payloads). Note that Spring sends a frame as a binary
 * WebSocket message (raw WebSocket endpoint only, never over SockJS) when its content-type is
 * {@code application/octet-stream}.
 */
@Controller
class DemoStompController implements DisposableBean {

    private static final Log logger = LogFactory.getLog(DemoStompController.class);

    static final int MAX_PUSH_COUNT = 10_000;

    static final int MAX_PUSH_BYTES = 1024 * 1024;

    private final SimpMessagingTemplate template;

    private final ObjectMapper objectMapper;

    private final SimpUserRegistry userRegistry;

    private final DemoStats stats;

    /** {@code /app/slow}'s worker: the server's knee at {@link SlowWorker#PER_SECOND} messages a second. */
    private final SlowWorker slow = new SlowWorker(SlowWorker.PER_SECOND);

    DemoStompController(
            SimpMessagingTemplate template, SimpUserRegistry userRegistry, ObjectMapper objectMapper, DemoStats stats) {
        this.template = template;
        this.userRegistry = userRegistry;
        this.objectMapper = objectMapper;
        this.stats = stats;
    }

    /** Spring's "greeting" sample, without its one second sleep: {@code {"name":"X"}} to everybody as {@code {"content":"Hello, X!"}}. */
    @MessageMapping("/hello")
    public void hello(Message<byte[]> message) {
        JsonNode request = readJson(message);
        if (request == null) {
            this.stats.invalidRequest();
            return;
        }
        String name = request.path("name").asText("");
        Map<String, Object> greeting = Map.of("content", "Hello, " + HtmlUtils.htmlEscape(name) + "!");
        SimpMessageHeaderAccessor headers = SimpMessageHeaderAccessor.create(SimpMessageType.MESSAGE);
        headers.setContentType(MimeTypeUtils.APPLICATION_JSON);
        copyExtensionHeaders(message, headers);
        send("/topic/greetings", writeJson(greeting), headers);
    }

    /** The same payload (and {@code x-*} headers) back to the sending session only, at {@code /user/queue/echo}. */
    @MessageMapping("/echo")
    public void echo(Message<byte[]> message) {
        SimpMessageHeaderAccessor headers = replyHeaders(message);
        headers.setSessionId(SimpMessageHeaderAccessor.getSessionId(message.getHeaders()));
        send(userDestination(message, "/queue/echo"), message.getPayload(), headers);
    }

    /**
     * As {@code /echo}, but a message whose JSON {@code seq} is a multiple of {@link DemoServer#ECHO_LOSSY_EVERY} is never
     * answered: a reply timeout amid a user's answered messages, at a place a test can tell from the user's own
     * sequence.
     */
    @MessageMapping("/echo-lossy")
    public void echoLossy(Message<byte[]> message) {
        JsonNode request = readJson(message);
        if (request != null && request.path("seq").asLong(0) % DemoServer.ECHO_LOSSY_EVERY == 0) {
            return;
        }
        echo(message);
    }

    /**
     * The echo of a server that saturates at a known rate (the stepped capacity tests): the same reply as
     * {@code /app/echo}, after a single worker's fixed time per message ({@link SlowWorker}). Above
     * {@link SlowWorker#PER_SECOND} messages a second, replies queue and their latency grows without bound.
     */
    @MessageMapping("/slow")
    public void slow(Message<byte[]> message) {
        SimpMessageHeaderAccessor headers = replyHeaders(message);
        headers.setSessionId(SimpMessageHeaderAccessor.getSessionId(message.getHeaders()));
        String destination = userDestination(message, "/queue/echo");
        byte[] payload = message.getPayload();
        slow.submit(() -> send(destination, payload, headers));
    }

    @Override
    public void destroy() {
        slow.close();
    }

    /**
     * Customer-service chat: with a {@code to:<user>} header, to every session of that user at
     * {@code /user/queue/chat}; without one, to {@code /topic/chat}. Adds {@code from:<sender>}.
     */
    @MessageMapping("/chat")
    public void chat(Message<byte[]> message) {
        String to = firstNativeHeader(message, "to");
        if (StringUtils.hasText(to)) {
            // One send per session of the recipient, each addressed to its session id. Sending once to
            // /user/<to>/queue/chat would be simpler, but with preservePublishOrder on, Spring 6.2's
            // UserDestinationMessageHandler pushes the SAME Message instance through one ordered channel per
            // target session and fails with "Expected mutable SimpMessageHeaderAccessor" (message lost) as soon
            // as the user has two sessions.
            SimpUser recipient = this.userRegistry.getUser(to);
            if (recipient == null) {
                return;
            }
            String destination = userDestination(to, "/queue/chat");
            for (SimpSession session : recipient.getSessions()) {
                SimpMessageHeaderAccessor sessionHeaders = replyHeaders(message);
                sessionHeaders.setNativeHeader("from", userName(message));
                sessionHeaders.setSessionId(session.getId());
                send(destination, message.getPayload(), sessionHeaders);
            }
        } else {
            SimpMessageHeaderAccessor headers = replyHeaders(message);
            headers.setNativeHeader("from", userName(message));
            send("/topic/chat", message.getPayload(), headers);
        }
    }

    /**
     * Push benchmark: {@code {"count":N,"bytes":S}} sends N messages of exactly S payload bytes to the calling
     * session at {@code /user/queue/push}, with {@code x-push-seq:1..N} and {@code x-push-count:N} (plus the
     * request's {@code x-*} headers). Invalid requests get one WARN log line and a JSON error at
     * {@code /user/queue/errors} (the connection stays open).
     */
    @MessageMapping("/push")
    public void push(Message<byte[]> message) {
        JsonNode request = readJson(message);
        if (request == null) {
            sendError(message, "push: payload is not JSON");
            return;
        }
        long count = request.path("count").asLong(-1);
        long bytes = request.path("bytes").asLong(-1);
        if (count < 1 || count > MAX_PUSH_COUNT || bytes < 1 || bytes > MAX_PUSH_BYTES) {
            String error = "push: need 1<=count<=" + MAX_PUSH_COUNT + " and 1<=bytes<=" + MAX_PUSH_BYTES
                    + ", got count=" + request.path("count") + " bytes=" + request.path("bytes");
            logger.warn(error + " (session " + SimpMessageHeaderAccessor.getSessionId(message.getHeaders()) + ")");
            sendError(message, error);
            return;
        }
        String sessionId = SimpMessageHeaderAccessor.getSessionId(message.getHeaders());
        String destination = userDestination(message, "/queue/push");
        for (int seq = 1; seq <= count; seq++) {
            SimpMessageHeaderAccessor headers = SimpMessageHeaderAccessor.create(SimpMessageType.MESSAGE);
            copyExtensionHeaders(message, headers);
            headers.setNativeHeader("x-push-seq", Integer.toString(seq));
            headers.setNativeHeader("x-push-count", Long.toString(count));
            headers.setSessionId(sessionId);
            byte[] payload = pushPayload(seq, (int) bytes);
            headers.setContentType(payload[0] == '{' ? MimeTypeUtils.APPLICATION_JSON : MimeTypeUtils.TEXT_PLAIN);
            send(destination, payload, headers);
        }
    }

    /** {@code {"seq":i,"data":"xxx…"}} padded to exactly {@code size} ASCII bytes, or {@code size} 'x's if too small. */
    static byte[] pushPayload(int seq, int size) {
        byte[] prefix = ("{\"seq\":" + seq + ",\"data\":\"").getBytes(StandardCharsets.US_ASCII);
        byte[] suffix = "\"}".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[size];
        if (prefix.length + suffix.length > size) {
            Arrays.fill(payload, (byte) 'x');
            return payload;
        }
        System.arraycopy(prefix, 0, payload, 0, prefix.length);
        Arrays.fill(payload, prefix.length, size - suffix.length, (byte) 'x');
        System.arraycopy(suffix, 0, payload, size - suffix.length, suffix.length);
        return payload;
    }

    private void sendError(Message<byte[]> request, String error) {
        this.stats.invalidRequest();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error);
        body.put("destination", SimpMessageHeaderAccessor.getDestination(request.getHeaders()));
        SimpMessageHeaderAccessor headers = SimpMessageHeaderAccessor.create(SimpMessageType.MESSAGE);
        headers.setContentType(MimeTypeUtils.APPLICATION_JSON);
        copyExtensionHeaders(request, headers);
        headers.setSessionId(SimpMessageHeaderAccessor.getSessionId(request.getHeaders()));
        send(userDestination(request, "/queue/errors"), writeJson(body), headers);
    }

    private void send(String destination, byte[] payload, SimpMessageHeaderAccessor headers) {
        headers.setLeaveMutable(true);
        this.template.send(destination, MessageBuilder.createMessage(payload, headers.getMessageHeaders()));
    }

    /** A MESSAGE accessor with the request's {@code x-*} headers and content-type. */
    private static SimpMessageHeaderAccessor replyHeaders(Message<?> request) {
        SimpMessageHeaderAccessor headers = SimpMessageHeaderAccessor.create(SimpMessageType.MESSAGE);
        copyExtensionHeaders(request, headers);
        MimeType contentType = request.getHeaders().get(MessageHeaders.CONTENT_TYPE, MimeType.class);
        if (contentType != null) {
            headers.setContentType(contentType);
        }
        return headers;
    }

    private static void copyExtensionHeaders(Message<?> request, SimpMessageHeaderAccessor target) {
        Map<String, List<String>> nativeHeaders = nativeHeaders(request);
        if (nativeHeaders == null) {
            return;
        }
        for (Map.Entry<String, List<String>> entry : nativeHeaders.entrySet()) {
            String name = entry.getKey();
            if (name.length() > 2
                    && name.substring(0, 2).toLowerCase(Locale.ROOT).equals("x-")) {
                for (String value : entry.getValue()) {
                    target.addNativeHeader(name, value);
                }
            }
        }
    }

    @Nullable
    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> nativeHeaders(Message<?> message) {
        return (Map<String, List<String>>) message.getHeaders().get(NativeMessageHeaderAccessor.NATIVE_HEADERS);
    }

    @Nullable
    private static String firstNativeHeader(Message<?> message, String name) {
        Map<String, List<String>> nativeHeaders = nativeHeaders(message);
        List<String> values = (nativeHeaders != null ? nativeHeaders.get(name) : null);
        return (values != null && !values.isEmpty() ? values.get(0) : null);
    }

    /** The sender's Principal name (always set by DemoConnectInterceptor), else its session id. */
    private static String userName(Message<?> message) {
        Principal user = SimpMessageHeaderAccessor.getUser(message.getHeaders());
        return (user != null ? user.getName() : SimpMessageHeaderAccessor.getSessionId(message.getHeaders()));
    }

    /**
     * {@code /user/<sender>/<destination>}. Together with the session-id header this reaches the sending session
     * only (Spring's DefaultUserDestinationResolver); without a Principal, a user named like the session id also
     * resolves to exactly that session.
     */
    private static String userDestination(Message<?> request, String destination) {
        return userDestination(userName(request), destination);
    }

    private static String userDestination(String user, String destination) {
        return "/user/" + StringUtils.replace(user, "/", "%2F") + destination;
    }

    @Nullable
    private JsonNode readJson(Message<byte[]> message) {
        try {
            JsonNode node = this.objectMapper.readTree(message.getPayload());
            if (node != null && node.isObject()) {
                return node;
            }
        } catch (IOException ex) {
            // fall through
        }
        if (logger.isDebugEnabled()) {
            logger.debug("Ignoring a non-JSON-object payload sent to "
                    + SimpMessageHeaderAccessor.getDestination(message.getHeaders()));
        }
        return null;
    }

    private byte[] writeJson(Object value) {
        try {
            return this.objectMapper.writeValueAsBytes(value);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
