package io.github.sockjsstomp.client.user;

import java.util.ArrayList;
import java.util.List;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;

/** A STOMP session that only records its ACK and NACK frames, as "ACK id" / "NACK id". */
final class AckingSession implements StompSession {

    final List<String> frames = new ArrayList<>();
    final List<StompHeaders> headers = new ArrayList<>();
    boolean connected = true;
    /** Run inside each write, as a broker that delivers the next message before the writer returns. */
    Runnable duringWrite = () -> {};

    @Override
    public String getSessionId() {
        return "acking";
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    public void setAutoReceipt(boolean enabled) {}

    @Override
    public Receiptable send(String destination, Object payload) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Receiptable send(StompHeaders headers, Object payload) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Subscription subscribe(String destination, StompFrameHandler handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Subscription subscribe(StompHeaders headers, StompFrameHandler handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Receiptable acknowledge(String messageId, boolean consumed) {
        throw new UnsupportedOperationException("the ACKs carry their headers");
    }

    @Override
    public synchronized Receiptable acknowledge(StompHeaders frame, boolean consumed) {
        frames.add((consumed ? "ACK " : "NACK ") + frame.getId());
        headers.add(frame);
        duringWrite.run();
        return null;
    }

    @Override
    public void disconnect() {
        connected = false;
    }

    @Override
    public void disconnect(StompHeaders headers) {
        connected = false;
    }
}
