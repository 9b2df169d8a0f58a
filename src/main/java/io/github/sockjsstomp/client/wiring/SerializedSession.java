package io.github.sockjsstomp.client.wiring;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.WebSocketSessionDecorator;

/**
 * One writer at a time on a session, and every writer learns the fate of its own message.
 *
 * <p>Spring's STOMP session writes heart-beats from the scheduler and SENDs from the JMeter thread with no lock
 * between them, which Tomcat refuses (TEXT_FULL_WRITING). Spring's ConcurrentWebSocketSessionDecorator queues
 * the second writer's message for the first to flush: if that flush fails, the failure reaches the other
 * thread and the queued SEND is gone without a trace, counted LOST instead of FAILED. Here a SEND waits for the
 * session (at most {@code waitMillis}) and writes itself. A heart-beat never waits: a write in flight already
 * shows the server the session is alive, so the heart-beat is skipped and the shared heart-beat threads are
 * not held up by a slow session's SEND.
 */
final class SerializedSession extends WebSocketSessionDecorator {

    private final ReentrantLock writing = new ReentrantLock();
    private final long waitMillis;

    SerializedSession(WebSocketSession delegate, long waitMillis) {
        super(delegate);
        this.waitMillis = waitMillis;
    }

    @Override
    public void sendMessage(WebSocketMessage<?> message) throws IOException {
        if (isHeartbeat(message)) {
            if (!writing.tryLock()) {
                return;
            }
        } else {
            lockForSend();
        }
        try {
            super.sendMessage(message);
        } finally {
            writing.unlock();
        }
    }

    private void lockForSend() throws IOException {
        try {
            if (!writing.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
                throw new IOException("Session busy: another write on it did not finish within " + waitMillis + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting to write on the session");
        }
    }

    /** STOMP's heart-beat is a lone end-of-line. */
    static boolean isHeartbeat(WebSocketMessage<?> message) {
        return message instanceof TextMessage text && text.getPayloadLength() == 1 && "\n".equals(text.getPayload());
    }
}
