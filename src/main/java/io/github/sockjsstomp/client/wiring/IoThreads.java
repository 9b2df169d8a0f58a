package io.github.sockjsstomp.client.wiring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.channels.AsynchronousChannelGroup;
import java.util.ArrayList;
import java.util.List;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The threads doing the socket I/O of the WebSocket sessions, given to Tomcat's client in place of its own
 * shared group: one lane per thread, each lane a channel group of exactly one thread that polls its own
 * sockets and runs their handlers itself.
 *
 * <p>Why: Tomcat's client builds its group on a cached thread pool. On Linux the JDK then reads each socket
 * on one of its internal poller threads and hands every completion over to a pool thread, which runs Tomcat's
 * frame decoding, Spring's STOMP session and our reply tracking: two thread wake-ups for every frame received.
 * A fixed pool of several threads is no cure: its threads take turns at polling, and the one that polled
 * wakes another to poll in its place before it runs the handler (measured: 2 switches per reply with two
 * threads, 0.9 with one). A one-thread group never hands over, and handles every socket that became readable
 * in one wake-up; sessions are spread over the lanes so that all cores still decode.
 *
 * <p>The price: a handler must not block, since the lane's thread is also its poller. Ours do not (replies
 * are handed on with non-blocking offers); the only writes on these threads are small frames on an idle socket:
 * Tomcat's answers to a ping or a close, and over SockJS, Spring's STOMP CONNECT once the SockJS session opens.
 */
final class IoThreads {

    static final String TOMCAT_GROUP_FIELD = "asynchronousChannelGroup";

    private IoThreads() {}

    /** {@code lanes} one-thread groups of daemon threads named {@code stomp-io-N}. */
    static List<AsynchronousChannelGroup> lanes(int lanes) {
        List<AsynchronousChannelGroup> groups = new ArrayList<>(lanes);
        for (int i = 1; i <= lanes; i++) {
            String name = SharedStompClients.IO_THREAD_PREFIX + i;
            try {
                groups.add(AsynchronousChannelGroup.withFixedThreadPool(1, task -> {
                    Thread thread = new Thread(task, name);
                    // JMeter ends a non-GUI run only when no non-daemon thread is left.
                    thread.setDaemon(true);
                    return thread;
                }));
            } catch (IOException e) {
                groups.forEach(AsynchronousChannelGroup::shutdown);
                throw new UncheckedIOException("Cannot start I/O thread " + name, e);
            }
        }
        return List.copyOf(groups);
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
                throw new NoSuchFieldException(
                        TOMCAT_GROUP_FIELD + " is a " + field.getType().getName());
            }
            field.setAccessible(true);
            field.set(container, group);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "This Tomcat WebSocket client ("
                            + WsWebSocketContainer.class.getPackage().getImplementationVersion()
                            + ") takes no I/O thread group: set the JMeter property "
                            + "sockjsstomp.ioThreads=0 to use its own (" + e + ")",
                    e);
        }
    }
}
