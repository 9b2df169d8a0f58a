package io.github.sockjsstomp.bench.floors;

import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.springframework.messaging.Message;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompDecoder;
import org.springframework.messaging.simp.stomp.StompEncoder;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.util.MimeType;

/**
 * A STOMP session of the bench's own: Spring's STOMP codec ({@link StompEncoder}, {@link StompDecoder}) straight on
 * Tomcat's WebSocket client, with none of Spring's session layer between them (no {@code WebSocketStompClient}, its
 * {@code WebSocketTcpConnectionHandlerAdapter}, {@code BufferingStompDecoder} or {@code DefaultStompSession}). Set
 * beside the floors on Spring's client it says what that layer costs and what is Tomcat's, with the same frames on
 * the wire: a CONNECT as Spring's session writes it ({@code accept-version:1.1,1.2}, no {@code host}), a SUBSCRIBE
 * with ids from 0, a SEND with {@code content-length}; each frame written as Spring's WebSocket session writes a
 * {@code TextMessage} ({@code getBasicRemote().sendText(text, true)}), one writer at a time, as the plugin's
 * {@code SerializedSession} allows.
 *
 * <p>On a container of {@code FloorLanes} (the plugin's buffer sizes) it takes text messages in Tomcat's pieces, as the
 * plugin's plain WebSocket sessions do: a STOMP frame split over pieces or messages is kept and decoded with the next
 * one, without a size limit. Not handled, since no floor needs it: binary messages; receipts; the server's
 * heart-beats are read and dropped, and a silent server is not noticed; an ERROR frame fails the connect, or is printed
 * once connected; unsubscribe.
 */
final class CodecSession {

    /** Stateless, shared as Spring's WebSocketStompClient shares its own. */
    private static final StompEncoder ENCODER = new StompEncoder();

    private static final StompDecoder DECODER = new StompDecoder();
    private static final byte[] EMPTY = new byte[0];
    /** The upgrade {@link ConnectFloor} makes, so that the connect floors differ only in their STOMP session. */
    static final ClientEndpointConfig CONFIG = ClientEndpointConfig.Builder.create()
            .preferredSubprotocols(List.of("v12.stomp"))
            .build();

    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private final Map<String, Runnable> subscriptions = new ConcurrentHashMap<>();
    private final ReentrantLock writing = new ReentrantLock();
    private Session session;
    private int nextSubscription;
    /** A frame's start that came without its end (in a message or a piece); only the reading thread touches it. */
    private byte[] remainder;
    /** The SEND headers of the last destination: a user of the floors sends to one destination only. */
    private String sendDestination;

    private Map<String, Object> sendHeaders;

    private CodecSession() {}

    /** Upgrade, CONNECT with heart-beats {@code heartbeatMillis} both ways, and wait for CONNECTED. */
    static CodecSession connect(
            WsWebSocketContainer container, URI uri, String login, String passcode, long heartbeatMillis)
            throws Exception {
        CodecSession codec = new CodecSession();
        Endpoint endpoint = new Endpoint() {
            @Override
            public void onOpen(Session session, EndpointConfig config) {
                // the pieces of a text message as Tomcat hands them over (1 KB at most in FloorLanes' containers,
                // as in the plugin's): the decoder keeps a frame's start until its end comes, as Spring's
                // BufferingStompDecoder does for the plugin's partial messages
                session.addMessageHandler(
                        String.class, (MessageHandler.Partial<String>) (piece, last) -> codec.received(piece));
            }

            @Override
            public void onClose(Session session, CloseReason reason) {
                codec.connected.completeExceptionally(new IOException("closed before CONNECTED: " + reason));
            }

            @Override
            public void onError(Session session, Throwable failure) {
                codec.connected.completeExceptionally(failure);
            }
        };
        codec.session = container.connectToServer(endpoint, CONFIG, uri);
        StompHeaderAccessor connect = StompHeaderAccessor.create(StompCommand.CONNECT);
        connect.setAcceptVersion("1.1,1.2");
        connect.setLogin(login);
        connect.setPasscode(passcode);
        connect.setHeartbeat(heartbeatMillis, heartbeatMillis);
        try {
            codec.write(ENCODER.encode(connect.getMessageHeaders(), EMPTY));
            codec.connected.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            codec.session.close();
            throw e;
        }
        return codec;
    }

    /** Subscribes; {@code onMessage} runs on the reading I/O thread for each MESSAGE of this subscription. */
    void subscribe(String destination, Runnable onMessage) throws IOException {
        StompHeaderAccessor subscribe = StompHeaderAccessor.create(StompCommand.SUBSCRIBE);
        String id;
        synchronized (this) {
            id = Integer.toString(nextSubscription++);
        }
        subscribe.setSubscriptionId(id);
        subscribe.setDestination(destination);
        subscriptions.put(id, onMessage);
        write(ENCODER.encode(subscribe.getMessageHeaders(), EMPTY));
    }

    /** A SEND of {@code body} to {@code destination}; one thread sends on a session, as the floors' senders do. */
    void send(String destination, MimeType contentType, byte[] body) throws IOException {
        if (!destination.equals(sendDestination)) {
            StompHeaderAccessor send = StompHeaderAccessor.create(StompCommand.SEND);
            send.setDestination(destination);
            send.setContentType(contentType);
            sendHeaders = send.getMessageHeaders();
            sendDestination = destination;
        }
        write(ENCODER.encode(sendHeaders, body));
    }

    /** A heart-beat, skipped while a write is under way: that write already tells the server the session lives. */
    void heartbeat() {
        if (!writing.tryLock()) {
            return;
        }
        try {
            session.getBasicRemote().sendText("\n", true);
        } catch (IOException e) {
            // a session the server closed: nobody counts it lost here, as ConnectFloor's heart-beats do not
        } finally {
            writing.unlock();
        }
    }

    /** DISCONNECT, then close; a session the server closed first is let go quietly. */
    void disconnect() {
        try {
            write(ENCODER.encode(
                    StompHeaderAccessor.create(StompCommand.DISCONNECT).getMessageHeaders(), EMPTY));
            session.close();
        } catch (Exception e) {
            // the server may have gone first: nothing to close
        }
    }

    private void write(byte[] frame) throws IOException {
        // Spring's TextMessage(byte[]) becomes this String, written by its session with sendText(text, isLast)
        String text = new String(frame, StandardCharsets.UTF_8);
        writing.lock();
        try {
            session.getBasicRemote().sendText(text, true);
        } finally {
            writing.unlock();
        }
    }

    private void received(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (remainder != null) {
            byte[] joined = Arrays.copyOf(remainder, remainder.length + bytes.length);
            System.arraycopy(bytes, 0, joined, remainder.length, bytes.length);
            bytes = joined;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        List<Message<byte[]>> frames = DECODER.decode(buffer);
        // the decoder leaves an incomplete frame's bytes unread
        remainder = buffer.hasRemaining() ? Arrays.copyOfRange(bytes, buffer.position(), bytes.length) : null;
        for (Message<byte[]> frame : frames) {
            Map<String, Object> headers = frame.getHeaders();
            StompCommand command = StompHeaderAccessor.getCommand(headers);
            if (command == StompCommand.MESSAGE) {
                Runnable onMessage = subscriptions.get(SimpMessageHeaderAccessor.getSubscriptionId(headers));
                if (onMessage != null) {
                    onMessage.run();
                }
            } else if (command == StompCommand.CONNECTED) {
                connected.complete(null);
            } else if (command == StompCommand.ERROR) {
                String message = "ERROR " + StompHeaderAccessor.wrap(frame).getMessage();
                if (!connected.completeExceptionally(new IOException(message))) {
                    System.err.println(message);
                }
            }
        }
    }
}
