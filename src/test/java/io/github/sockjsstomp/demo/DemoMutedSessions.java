package io.github.sockjsstomp.demo;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.messaging.support.MessageHeaderAccessor;

/**
 * A server that stops heart-beating part-way, as one too busy to write does: a CONNECT with the header
 * {@value #HEADER}{@code :<millis>} gets its CONNECTED frame, and from that many milliseconds after it nothing
 * more (heart-beats, messages, receipts) while its connection stays open, so its client sees the heart-beats
 * missing. Once per login: the login's next session is served as any other, so each such user loses exactly one
 * session to missed heart-beats. One interceptor on both channels: inbound it notes the CONNECT, outbound it drops.
 */
final class DemoMutedSessions {

    static final String HEADER = "demo-mute-after-millis";

    /** When each muted session's frames stop, by session id (epoch ms). */
    private final Map<String, Long> mutedFrom = new ConcurrentHashMap<>();

    /** The logins whose one session was muted (or is to be). */
    private final Set<String> mutedLogins = ConcurrentHashMap.newKeySet();

    /** On the client inbound channel: notes the CONNECTs that ask to be muted, forgets sessions that end. */
    ChannelInterceptor inbound() {
        return new ChannelInterceptor() {
            @Override
            public Message<?> preSend(Message<?> message, MessageChannel channel) {
                StompHeaderAccessor stomp = MessageHeaderAccessor.getAccessor(message, StompHeaderAccessor.class);
                if (stomp != null && stomp.getSessionId() != null) {
                    if (stomp.getMessageType() == SimpMessageType.CONNECT) {
                        noteConnect(stomp.getSessionId(), stomp);
                    } else if (stomp.getMessageType() == SimpMessageType.DISCONNECT) {
                        mutedFrom.remove(stomp.getSessionId());
                    }
                }
                return message;
            }
        };
    }

    /** On the client outbound channel: drops every frame to a muted session but its CONNECTED. */
    ChannelInterceptor outbound() {
        return new ChannelInterceptor() {
            @Override
            public Message<?> preSend(Message<?> message, MessageChannel channel) {
                SimpMessageHeaderAccessor simp =
                        MessageHeaderAccessor.getAccessor(message, SimpMessageHeaderAccessor.class);
                if (simp == null
                        || simp.getSessionId() == null
                        || simp.getMessageType() == SimpMessageType.CONNECT_ACK) {
                    return message;
                }
                Long from = mutedFrom.get(simp.getSessionId());
                return from != null && System.currentTimeMillis() >= from ? null : message;
            }
        };
    }

    private void noteConnect(String sessionId, StompHeaderAccessor connect) {
        String after = connect.getFirstNativeHeader(HEADER);
        String login = connect.getLogin();
        if (after == null || login == null || !mutedLogins.add(login)) {
            return;
        }
        mutedFrom.put(sessionId, System.currentTimeMillis() + Long.parseLong(after.trim()));
    }
}
