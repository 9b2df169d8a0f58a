package io.github.sockjsstomp.demo;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.messaging.support.MessageHeaderAccessor;
import org.springframework.util.MimeTypeUtils;
import org.springframework.util.StringUtils;

/**
 * Inbound interceptor for STOMP CONNECT: the Principal is the {@code login} header (or {@code anon-<n>}), and a
 * CONNECT whose {@code passcode} is exactly {@value #REJECT_PASSCODE} is refused with an ERROR frame whose
 * {@code message} header is {@code Bad credentials for <login>}; the server then closes the connection.
 *
 * <p>Why not just throw from {@code preSend}: with {@code preserveReceiveOrder} on, Spring's
 * OrderedMessageChannelDecorator swallows (and logs with a stack trace) exceptions thrown by inbound
 * interceptors, so no ERROR frame would reach the client. Instead the CONNECT is dropped (null) and the
 * ERROR frame is sent explicitly through the client outbound channel; StompSubProtocolHandler closes the
 * WebSocket/SockJS session (status 1002) after writing any ERROR frame.
 */
final class DemoConnectInterceptor implements ChannelInterceptor {

    static final String REJECT_PASSCODE = "reject";

    private final AtomicLong anonymousCounter = new AtomicLong();

    private final Supplier<MessageChannel> clientOutboundChannel;

    private final DemoStats stats;

    DemoConnectInterceptor(Supplier<MessageChannel> clientOutboundChannel, DemoStats stats) {
        this.clientOutboundChannel = clientOutboundChannel;
        this.stats = stats;
    }

    @Override
    public Message<?> preSend(Message<?> message, MessageChannel channel) {
        StompHeaderAccessor accessor = MessageHeaderAccessor.getAccessor(message, StompHeaderAccessor.class);
        if (accessor == null) {
            return message;
        }
        StompCommand command = accessor.getCommand();
        if (command != StompCommand.CONNECT && command != StompCommand.STOMP) {
            return message;
        }
        String login = accessor.getLogin();
        String name = StringUtils.hasText(login) ? login : "anon-" + this.anonymousCounter.incrementAndGet();
        if (REJECT_PASSCODE.equals(accessor.getPasscode())) {
            this.stats.connectRejected();
            sendError(accessor.getSessionId(), "Bad credentials for " + name);
            return null; // drop the CONNECT: no CONNECTED frame, no user registration
        }
        accessor.setUser(new DemoPrincipal(name));
        return message;
    }

    private void sendError(String sessionId, String text) {
        StompHeaderAccessor error = StompHeaderAccessor.create(StompCommand.ERROR);
        error.setMessage(text);
        error.setSessionId(sessionId);
        error.setContentType(MimeTypeUtils.TEXT_PLAIN);
        this.clientOutboundChannel
                .get()
                .send(MessageBuilder.createMessage(text.getBytes(StandardCharsets.UTF_8), error.getMessageHeaders()));
    }

    /** The STOMP user: just a name. */
    record DemoPrincipal(String name) implements Principal {

        @Override
        public String getName() {
            return this.name;
        }
    }
}
