package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.IncomingMessage;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
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

    Listeners(Object owner) {
        this.owner = owner;
    }

    void add(UserListener listener) {
        all.add(listener);
    }

    long messages() {
        return messages.sum();
    }

    /** The handler of one SUBSCRIBE: every MESSAGE on it goes to the listeners. */
    StompFrameHandler subscription(UserSettings receiver, String destination) {
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

    void refusal(StompHeaders headers, byte[] body, String words) {
        for (UserListener listener : all) {
            try {
                listener.onRefusal(headers, body, words);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed on an ERROR frame on an open session", owner, listener, e);
            }
        }
    }

    void receiptError(String receiptId, String error) {
        for (UserListener listener : all) {
            try {
                listener.onReceiptError(receiptId, error);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed on an ERROR frame naming receipt {}", owner, listener, receiptId, e);
            }
        }
    }

    void stompError(String error) {
        for (UserListener listener : all) {
            try {
                listener.onStompError(error);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed on an ERROR frame", owner, listener, e);
            }
        }
    }

    void connectionLost(String reason) {
        for (UserListener listener : all) {
            try {
                listener.onConnectionLost(reason);
            } catch (RuntimeException e) {
                log.warn("{}: {} failed on a lost connection", owner, listener, e);
            }
        }
    }
}
