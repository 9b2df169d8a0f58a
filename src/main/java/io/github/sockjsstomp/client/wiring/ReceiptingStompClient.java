package io.github.sockjsstomp.client.wiring;

import org.springframework.messaging.Message;
import org.springframework.messaging.simp.stomp.ConnectionHandlingStompSession;
import org.springframework.messaging.simp.stomp.ConnectionLostException;
import org.springframework.messaging.simp.stomp.DefaultStompSession;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSessionHandler;
import org.springframework.messaging.support.MessageHeaderAccessor;
import org.springframework.web.socket.client.WebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * A STOMP client whose sessions report every RECEIPT frame to their handler, when it implements
 * {@link ReceiptListener}: Spring's own session passes RECEIPT frames only to the receipt handlers it
 * registered itself (see {@link ReceiptHeaders} for why ours are not registered there). Costs one field read
 * per frame while no one wants receipts, and one look at the command Spring decoded already when someone does.
 *
 * <p>Its sessions also tell a connection they close for missed heart-beats as that alone: Spring's read inactivity
 * drops the connection, closes it, and only then tells the handler why, while the close's own transport error,
 * on an I/O thread, could be told first, and a sampler looking in between reported the loss as a transport error.
 */
final class ReceiptingStompClient extends WebSocketStompClient {

    ReceiptingStompClient(WebSocketClient webSocketClient) {
        super(webSocketClient);
    }

    /** As {@code StompClientSupport.createSession} (spring-messaging 6.2) does, with our session. */
    @Override
    protected ConnectionHandlingStompSession createSession(StompHeaders connectHeaders, StompSessionHandler handler) {
        DefaultStompSession session = new ReceiptingSession(handler, processConnectHeaders(connectHeaders));
        session.setMessageConverter(getMessageConverter());
        session.setTaskScheduler(getTaskScheduler());
        session.setReceiptTimeLimit(getReceiptTimeLimit());
        return session;
    }

    private static final class ReceiptingSession extends DefaultStompSession {

        private final ReceiptListener receipts;

        ReceiptingSession(StompSessionHandler handler, StompHeaders connectHeaders) {
            super(handler, connectHeaders);
            this.receipts = handler instanceof ReceiptListener listener ? listener : null;
        }

        @Override
        public void handleMessage(Message<byte[]> message) {
            if (receipts != null && receipts.wantsReceipts()) {
                long receivedNanos = System.nanoTime();
                StompHeaderAccessor accessor = MessageHeaderAccessor.getAccessor(message, StompHeaderAccessor.class);
                if (accessor != null && accessor.getCommand() == StompCommand.RECEIPT) {
                    String receiptId = accessor.getReceiptId();
                    if (receiptId != null) {
                        receipts.receipt(receiptId, receivedNanos);
                    }
                }
            }
            // Spring's own receipt handlers (none of ours) still get theirs.
            super.handleMessage(message);
        }

        /**
         * A transport error once the connection is dropped is the transport's echo of a close the session made
         * itself: a DISCONNECT, said by no one, or a read or write inactivity task, which tells its own cause (a
         * {@link ConnectionLostException}) right after the close it made. The echo comes on the I/O thread and
         * could be told first; Spring's own closes and losses, all ConnectionLostExceptions, still are.
         */
        @Override
        public void handleFailure(Throwable failure) {
            if (isConnected() || failure instanceof ConnectionLostException) {
                super.handleFailure(failure);
            }
        }
    }
}
