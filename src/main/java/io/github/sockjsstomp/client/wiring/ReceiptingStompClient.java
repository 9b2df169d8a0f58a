package io.github.sockjsstomp.client.wiring;

import org.springframework.messaging.Message;
import org.springframework.messaging.simp.stomp.ConnectionHandlingStompSession;
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
    }
}
