package io.github.sockjsstomp.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.channels.AsynchronousChannelGroup;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * A fixed pool of threads doing the socket I/O of the WebSocket sessions, given to Tomcat's client in place
 * of its own shared group.
 *
 * <p>Why: Tomcat's client builds its group on a cached thread pool. On Linux the JDK then reads each socket
 * on one of its internal poller threads and hands every completion over to a pool thread, which runs Tomcat's
 * frame decoding, Spring's STOMP session and our reply tracking: two thread wake-ups for every frame received,
 * the second one in the way of every round trip. In a fixed pool, the thread that polls the socket reads it
 * and runs the handler itself.
 *
 * <p>The price, which is why the pool size is a setting: a handler must not block, since the pool's threads are
 * also the pollers. Ours do not (replies are handed on with non-blocking offers); the only writes on these
 * threads are small frames on an idle socket: Tomcat's answers to a ping or a close, and over SockJS, Spring's
 * STOMP CONNECT once the SockJS session opens.
 */
final class IoThreads {

    static final String TOMCAT_GROUP_FIELD = "asynchronousChannelGroup";

    private IoThreads() {
    }

    /** A group of {@code threads} daemon threads named {@code stomp-io-N}. */
    static AsynchronousChannelGroup group(int threads) {
        AtomicInteger number = new AtomicInteger();
        ThreadFactory factory = task -> {
            Thread thread = new Thread(task, "stomp-io-" + number.incrementAndGet());
            // JMeter ends a non-GUI run only when no non-daemon thread is left.
            thread.setDaemon(true);
            return thread;
        };
        try {
            return AsynchronousChannelGroup.withFixedThreadPool(threads, factory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + threads + " I/O threads", e);
        }
    }

    /**
     * Makes {@code container} open its sessions' sockets in {@code group}. Tomcat keeps the group in a private
     * field it fills on the first connect (there is no setter); this fills it before. Fails loudly if a Tomcat
     * version no longer has that field, rather than silently running with two hand-offs per frame.
     */
    static void install(WsWebSocketContainer container, AsynchronousChannelGroup group) {
        try {
            Field field = WsWebSocketContainer.class.getDeclaredField(TOMCAT_GROUP_FIELD);
            if (field.getType() != AsynchronousChannelGroup.class) {
                throw new NoSuchFieldException(TOMCAT_GROUP_FIELD + " is a " + field.getType().getName());
            }
            field.setAccessible(true);
            field.set(container, group);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("This Tomcat WebSocket client (" + WsWebSocketContainer.class.getPackage()
                    .getImplementationVersion() + ") takes no I/O thread group: set the JMeter property "
                    + "sockjsstomp.ioThreads=0 to use its own (" + e + ")", e);
        }
    }
}
