package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;

class SerializedSessionTest {

    /** A transport whose first write blocks until released and then fails, as a write to a dead peer does. */
    static final class StallingSession extends TransportDouble {
        final CountDownLatch firstWriteStarted = new CountDownLatch(1);
        final CountDownLatch releaseFirstWrite = new CountDownLatch(1);
        final List<String> written = new CopyOnWriteArrayList<>();
        private boolean first = true;

        @Override
        public synchronized void sendMessage(WebSocketMessage<?> message) throws IOException {
            if (first) {
                first = false;
                firstWriteStarted.countDown();
                try {
                    releaseFirstWrite.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("Broken pipe");
            }
            written.add(((TextMessage) message).getPayload());
        }
    }

    /**
     * A SEND behind a write that fails must not vanish: it is either written or its own caller gets the
     * failure. Spring's ConcurrentWebSocketSessionDecorator returned normally here and dropped the message.
     */
    @Test
    void aSendBehindAFailingWriteIsWrittenOrFailsInItsOwnCaller() throws Exception {
        StallingSession transport = new StallingSession();
        SerializedSession session = new SerializedSession(transport, 10_000);
        CompletableFuture<Throwable> first = CompletableFuture.supplyAsync(() -> outcome(session, "SEND 1"));
        assertThat(transport.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Throwable> second = CompletableFuture.supplyAsync(() -> outcome(session, "SEND 2"));
        transport.releaseFirstWrite.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).hasMessage("Broken pipe");
        // The second SEND waited for the session and wrote itself.
        assertThat(second.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(transport.written).containsExactly("SEND 2");
    }

    @Test
    void aHeartbeatDuringAWriteIsSkippedNotQueuedOrWaitedFor() throws Exception {
        StallingSession transport = new StallingSession();
        SerializedSession session = new SerializedSession(transport, 10_000);
        CompletableFuture<Throwable> send = CompletableFuture.supplyAsync(() -> outcome(session, "SEND 1"));
        assertThat(transport.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        session.sendMessage(new TextMessage("\n")); // returns at once although the write above is stalled
        transport.releaseFirstWrite.countDown();
        send.get(10, TimeUnit.SECONDS);
        assertThat(transport.written).isEmpty();
        session.sendMessage(new TextMessage("\n"));
        assertThat(transport.written).containsExactly("\n");
    }

    @Test
    void aSendThatCannotGetTheSessionInTimeFailsSayingSo() throws Exception {
        StallingSession transport = new StallingSession();
        SerializedSession session = new SerializedSession(transport, 50);
        CompletableFuture<Throwable> stalled = CompletableFuture.supplyAsync(() -> outcome(session, "SEND 1"));
        assertThat(transport.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> session.sendMessage(new TextMessage("SEND 2")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("did not finish within 50 ms");
        transport.releaseFirstWrite.countDown();
        stalled.get(10, TimeUnit.SECONDS);
    }

    private static Throwable outcome(WebSocketSession session, String text) {
        try {
            session.sendMessage(new TextMessage(text));
            return null;
        } catch (IOException e) {
            return e;
        }
    }
}
