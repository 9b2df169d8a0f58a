package io.github.sockjsstomp.demo;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.event.EventListener;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.messaging.SessionConnectedEvent;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;

/**
 * Cheap counters behind {@code GET /stats}: a few AtomicLongs updated by two channel interceptors and two
 * session events, never a log line per message.
 */
final class DemoStats {

    static final List<String> APP_DESTINATIONS = List.of("/app/hello", "/app/echo", "/app/chat", "/app/push");

    private static final int ENDED_REMEMBERED = 10_000;

    private final Set<String> connectedSessions = ConcurrentHashMap.newKeySet();

    /**
     * Sessions that ended before their CONNECTED was counted, the most recent {@value #ENDED_REMEMBERED}: Spring
     * publishes SessionConnectedEvent from the outbound channel's threads, so a session closed while its CONNECTED
     * was on the way (a client stopped mid-connect) can be told connected after it was told disconnected; counted
     * then, it would stay "connected" for ever.
     */
    private final Set<String> endedUncounted =
            Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<String, Boolean>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > ENDED_REMEMBERED;
                }
            }));

    private final AtomicLong totalConnects = new AtomicLong();

    private final AtomicLong rejectedConnects = new AtomicLong();

    private final AtomicLong disconnects = new AtomicLong();

    /** Connected sessions whose client went without DISCONNECT or a close frame (1006): a client that leaked them. */
    private final AtomicLong droppedWithoutClose = new AtomicLong();

    private final Map<String, AtomicLong> received = new LinkedHashMap<>();

    private final AtomicLong receivedOther = new AtomicLong();

    private final AtomicLong messagesSent = new AtomicLong();

    private final AtomicLong payloadBytesSent = new AtomicLong();

    private final AtomicLong invalidRequests = new AtomicLong();

    DemoStats() {
        for (String destination : APP_DESTINATIONS) {
            this.received.put(destination, new AtomicLong());
        }
    }

    @EventListener
    public void onConnected(SessionConnectedEvent event) {
        String sessionId =
                SimpMessageHeaderAccessor.getSessionId(event.getMessage().getHeaders());
        if (sessionId != null && !this.endedUncounted.remove(sessionId) && this.connectedSessions.add(sessionId)) {
            this.totalConnects.incrementAndGet();
        }
    }

    @EventListener
    public void onDisconnect(SessionDisconnectEvent event) {
        // May be published twice for one session (DISCONNECT frame, then the socket closing).
        if (this.connectedSessions.remove(event.getSessionId())) {
            this.disconnects.incrementAndGet();
            if (CloseStatus.NO_CLOSE_FRAME.equalsCode(event.getCloseStatus())) {
                this.droppedWithoutClose.incrementAndGet();
            }
        } else {
            this.endedUncounted.add(event.getSessionId());
        }
    }

    void connectRejected() {
        this.rejectedConnects.incrementAndGet();
    }

    void invalidRequest() {
        this.invalidRequests.incrementAndGet();
    }

    /** Counts SEND frames per application destination (client inbound channel). */
    ChannelInterceptor inboundCounter() {
        return new ChannelInterceptor() {
            @Override
            public Message<?> preSend(Message<?> message, MessageChannel channel) {
                if (SimpMessageHeaderAccessor.getMessageType(message.getHeaders()) == SimpMessageType.MESSAGE) {
                    String destination = SimpMessageHeaderAccessor.getDestination(message.getHeaders());
                    AtomicLong counter = (destination != null ? DemoStats.this.received.get(destination) : null);
                    (counter != null ? counter : DemoStats.this.receivedOther).incrementAndGet();
                }
                return message;
            }
        };
    }

    /** Counts MESSAGE frames on their way to clients (client outbound channel). */
    ChannelInterceptor outboundCounter() {
        return new ChannelInterceptor() {
            @Override
            public Message<?> preSend(Message<?> message, MessageChannel channel) {
                if (SimpMessageHeaderAccessor.getMessageType(message.getHeaders()) == SimpMessageType.MESSAGE) {
                    DemoStats.this.messagesSent.incrementAndGet();
                    if (message.getPayload() instanceof byte[] bytes) {
                        DemoStats.this.payloadBytesSent.addAndGet(bytes.length);
                    }
                }
                return message;
            }
        };
    }

    long droppedWithoutClose() {
        return this.droppedWithoutClose.get();
    }

    int connectedSessionCount() {
        return this.connectedSessions.size();
    }

    /** A JSON-ready snapshot (insertion-ordered maps of numbers). */
    Map<String, Object> snapshot(DemoHttpSessions httpSessions) {
        Map<String, Object> receivedMap = new LinkedHashMap<>();
        long receivedTotal = 0;
        for (Map.Entry<String, AtomicLong> entry : this.received.entrySet()) {
            long value = entry.getValue().get();
            receivedMap.put(entry.getKey(), value);
            receivedTotal += value;
        }
        long other = this.receivedOther.get();
        receivedMap.put("other", other);
        receivedTotal += other;

        Map<String, Object> map = new LinkedHashMap<>();
        map.put("connectedSessions", this.connectedSessions.size());
        map.put("totalConnects", this.totalConnects.get());
        map.put("rejectedConnects", this.rejectedConnects.get());
        map.put("disconnects", this.disconnects.get());
        map.put("messagesReceived", receivedMap);
        map.put("messagesReceivedTotal", receivedTotal);
        map.put("messagesSent", this.messagesSent.get());
        map.put("payloadBytesSent", this.payloadBytesSent.get());
        map.put("invalidRequests", this.invalidRequests.get());
        map.put("httpSessionsIssued", httpSessions.issuedCount());
        map.put("httpSessionsActive", httpSessions.activeCount());
        return map;
    }
}
