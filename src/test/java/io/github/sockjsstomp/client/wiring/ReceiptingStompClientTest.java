package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.nio.channels.AsynchronousCloseException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.simp.stomp.ConnectionHandlingStompSession;
import org.springframework.messaging.simp.stomp.ConnectionLostException;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.messaging.tcp.TcpConnection;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;

/** A session of our STOMP client on a connection that only records what is written. */
class ReceiptingStompClientTest {

    private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
    private final RecordingConnection connection = new RecordingConnection();
    private final List<String> receipts = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        scheduler.shutdown();
    }

    /** A session handler that hears receipts, as the virtual user's does. */
    private final class Handler extends StompSessionHandlerAdapter implements ReceiptListener {
        volatile boolean wanted = true;
        final List<Throwable> transportErrors = new CopyOnWriteArrayList<>();

        @Override
        public void handleTransportError(StompSession session, Throwable exception) {
            transportErrors.add(exception);
        }

        @Override
        public boolean wantsReceipts() {
            return wanted;
        }

        @Override
        public void receipt(String receiptId, long receivedNanos) {
            receipts.add(receiptId);
        }
    }

    private final Handler handler = new Handler();

    private ConnectionHandlingStompSession connectedSession() {
        return connectedSession(null);
    }

    /** With {@code heartbeats} (ms, both ways) asked by the client and agreed by the server, or none. */
    private ConnectionHandlingStompSession connectedSession(long[] heartbeats) {
        scheduler.initialize();
        ReceiptingStompClient client = new ReceiptingStompClient(new StandardWebSocketClient());
        client.setTaskScheduler(scheduler);
        StompHeaders connectHeaders = new StompHeaders();
        connectHeaders.setHeartbeat(heartbeats == null ? new long[] {0, 0} : heartbeats);
        ConnectionHandlingStompSession session = client.createSession(connectHeaders, handler);
        connection.session = session;
        session.afterConnected(connection);
        Message<byte[]> connected = frame(StompCommand.CONNECTED, null);
        if (heartbeats != null) {
            StompHeaderAccessor.getAccessor(connected, StompHeaderAccessor.class)
                    .setHeartbeat(heartbeats[0], heartbeats[1]);
        }
        session.handleMessage(connected);
        return session;
    }

    private static Message<byte[]> frame(StompCommand command, String receiptId) {
        StompHeaderAccessor accessor = StompHeaderAccessor.create(command);
        if (receiptId != null) {
            accessor.setReceiptId(receiptId);
        }
        // As Spring's decoder leaves it: the session sets its id on what arrives.
        accessor.setLeaveMutable(true);
        return MessageBuilder.createMessage(new byte[0], accessor.getMessageHeaders());
    }

    private static StompHeaders sendTo(StompHeaders headers) {
        headers.setDestination("/queue/a");
        return headers;
    }

    @Test
    void aSendWithOurReceiptHeaderCarriesItAndSchedulesNothing() {
        ConnectionHandlingStompSession session = connectedSession();
        session.send(sendTo(new ReceiptHeaders("m-1")), new byte[] {1});
        StompHeaderAccessor sent = StompHeaderAccessor.wrap(connection.written.get(1));
        assertThat(sent.getCommand()).isEqualTo(StompCommand.SEND);
        assertThat(sent.getReceipt()).isEqualTo("m-1");
        assertThat(scheduler.getScheduledThreadPoolExecutor().getQueue())
                .as("no receipt task")
                .isEmpty();
    }

    /** What ReceiptHeaders avoids: Spring schedules a task for every receipt it tracks itself. */
    @Test
    void springsOwnReceiptHeaderSchedulesATaskPerSend() {
        ConnectionHandlingStompSession session = connectedSession();
        StompHeaders headers = sendTo(new StompHeaders());
        headers.setReceipt("m-1");
        session.send(headers, new byte[] {1});
        assertThat(scheduler.getScheduledThreadPoolExecutor().getQueue()).hasSize(1);
    }

    @Test
    void everyReceiptFrameReachesTheHandlerAndOtherFramesDoNot() {
        ConnectionHandlingStompSession session = connectedSession();
        session.handleMessage(frame(StompCommand.RECEIPT, "m-7"));
        session.handleMessage(frame(StompCommand.RECEIPT, "0"));
        session.handleMessage(frame(StompCommand.ERROR, "m-8"));
        assertThat(receipts).containsExactly("m-7", "0");
    }

    @Test
    void noReceiptIsLookedForUntilOneIsWanted() {
        handler.wanted = false;
        ConnectionHandlingStompSession session = connectedSession();
        session.handleMessage(frame(StompCommand.RECEIPT, "m-7"));
        assertThat(receipts).isEmpty();
        handler.wanted = true;
        session.handleMessage(frame(StompCommand.RECEIPT, "m-8"));
        assertThat(receipts).containsExactly("m-8");
    }

    /**
     * Spring's read inactivity drops the connection, closes it, then says why; the close's own transport error (an
     * I/O thread's read cut short) may come first, as here, and is not told: the loss is the missed heart-beats.
     */
    @Test
    void aReadInactivityIsToldAloneNotAfterTheTransportErrorItsCloseMakes() {
        connectedSession(new long[] {10_000, 10_000});
        connection.onClose = () -> connection.session.handleFailure(new AsynchronousCloseException());
        assertThat(connection.readInactivity)
                .as("the session asked for a read inactivity check")
                .isNotNull();

        connection.readInactivity.run();

        assertThat(handler.transportErrors)
                .singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(ConnectionLostException.class))
                .satisfies(e -> assertThat(e.getMessage()).startsWith("Read inactivity"));
    }

    @Test
    void aTransportErrorOnAnOpenConnectionIsTold() {
        ConnectionHandlingStompSession session = connectedSession(new long[] {10_000, 10_000});

        session.handleFailure(new EOFException("peer went away"));

        assertThat(handler.transportErrors)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessage("peer went away"));
    }

    @Test
    void aConnectionTheServerClosesIsToldOnce() {
        ConnectionHandlingStompSession session = connectedSession(new long[] {10_000, 10_000});
        connection.onClose = () -> connection.session.handleFailure(new AsynchronousCloseException());

        session.afterConnectionClosed();

        assertThat(handler.transportErrors)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessage("Connection closed"));
        assertThat(session.isConnected()).isFalse();
    }

    @Test
    void ourDisconnectIsNotALoss() {
        ConnectionHandlingStompSession session = connectedSession(new long[] {10_000, 10_000});
        connection.onClose = () -> connection.session.handleFailure(new AsynchronousCloseException());

        session.disconnect();

        assertThat(handler.transportErrors).isEmpty();
    }

    private static final class RecordingConnection implements TcpConnection<byte[]> {

        final List<Message<byte[]>> written = new CopyOnWriteArrayList<>();
        volatile ConnectionHandlingStompSession session;
        volatile Runnable readInactivity;
        /** What the transport does on close, on the closing thread (nothing by default). */
        volatile Runnable onClose = () -> {};

        @Override
        public CompletableFuture<Void> sendAsync(Message<byte[]> message) {
            written.add(message);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onReadInactivity(Runnable runnable, long duration) {
            readInactivity = runnable;
        }

        @Override
        public void onWriteInactivity(Runnable runnable, long duration) {}

        @Override
        public void close() {
            onClose.run();
        }
    }
}
