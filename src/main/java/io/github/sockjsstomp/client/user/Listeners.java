package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.IncomingMessage;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A virtual user's listeners and the one place that calls them: a listener that throws is logged and the
 * others still hear the event.
 */
final class Listeners {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);
    private static final byte[] EMPTY = new byte[0];

    private final Object owner;
    private final List<UserListener> all = new CopyOnWriteArrayList<>();
    private final LongAdder messages = new LongAdder();
    /** Read on the I/O threads for each frame, set by the JMeter thread that attaches a listener. */
    private volatile boolean receiptsWanted;

    Listeners(Object owner) {
        this.owner = owner;
    }

    void add(UserListener listener) {
        all.add(listener);
        if (listener.wantsReceipts()) {
            receiptsWanted = true;
        }
    }

    /** Whether a listener wants RECEIPT frames: until then the session does not look for them. */
    boolean receiptsWanted() {
        return receiptsWanted;
    }

    long messages() {
        return messages.sum();
    }

    /** The handler of one SUBSCRIBE: every MESSAGE on it goes to the listeners. */
    StompFrameHandler subscription(UserSettings receiver, String destination) {
        return subscription(receiver, destination, null);
    }

    /**
     * The handler of one SUBSCRIBE: every MESSAGE on it goes to the listeners, then, when the subscription
     * acknowledges ({@code acks} not null), to its acknowledgements.
     */
    StompFrameHandler subscription(UserSettings receiver, String destination, SubscriptionAcks acks) {
        return new StompFrameHandler() {
            @Override
            public Type getPayloadType(StompHeaders headers) {
                return byte[].class;
            }

            @Override
            public void handleFrame(StompHeaders headers, Object payload) {
                long receivedNanos = System.nanoTime();
                // Spring hands an empty body over as null.
                byte[] body = payload == null ? EMPTY : (byte[]) payload;
                message(new IncomingMessage(receiver, destination, headers, body, receivedNanos));
                if (acks != null) {
                    acks.delivered(headers, receivedNanos);
                }
            }
        };
    }

    void message(IncomingMessage message) {
        messages.increment();
        for (UserListener listener : all) {
            try {
                listener.onMessage(message);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed for a message on {}", owner, listener, message.subscription(), e);
            }
        }
    }

    void receipt(String receiptId, long receivedNanos) {
        for (UserListener listener : all) {
            try {
                listener.onReceipt(receiptId, receivedNanos);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed on a RECEIPT", owner, listener, e);
            }
        }
    }

    void refusal(StompHeaders headers, byte[] body, String errorText) {
        tellEach("an ERROR frame on an open session", listener -> listener.onRefusal(headers, body, errorText));
    }

    void receiptError(String receiptId, String error) {
        tellEach("an ERROR frame naming receipt " + receiptId, listener -> listener.onReceiptError(receiptId, error));
    }

    void stompError(String error) {
        tellEach("an ERROR frame", listener -> listener.onStompError(error));
    }

    void connectionLost(String reason) {
        tellEach("a lost connection", listener -> listener.onConnectionLost(reason));
    }

    /** For the rare events; messages and receipts, one per frame, loop without a lambda of their own. */
    private void tellEach(String event, Consumer<UserListener> call) {
        for (UserListener listener : all) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed on {}", owner, listener, event, e);
            }
        }
    }
}
