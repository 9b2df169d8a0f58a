package io.github.sockjsstomp.client.wiring;

import java.nio.channels.AsynchronousChannelGroup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The floors' one door into the plugin's I/O lanes and buffer sizes: Tomcat's WebSocket containers on
 * {@link IoThreads}' lanes, built and sized by {@link SharedStompClients}' own code as the plugin's plain WebSocket
 * containers are ({@link TomcatBuffers}). {@code IoThreads} and {@code TomcatBuffers} are package-private in the plugin
 * (no other package needs them), so this benchmark class lives in the plugin's package, in the benchmark source root
 * ({@code bench/java}, never in the jar); the floors themselves are in {@code io.github.sockjsstomp.bench.floors}.
 */
public final class FloorLanes {

    private FloorLanes() {}

    /**
     * One container per I/O lane ({@link ClientSettings#DEFAULT_IO_THREADS}), connections spread over them by the
     * caller; on the plugin's I/O lanes, or with {@code onOurLanes} false on Tomcat's own I/O group. Each is sized as
     * the plugin's plain WebSocket containers are by default: text messages taken in pieces of
     * {@link TomcatBuffers#PARTIAL_MESSAGE_CHARS} (a session's handler must take partial messages, as the plugin's
     * does), a {@link TomcatBuffers#HANDSHAKE_BUFFER_BYTES} input buffer, and Tomcat's output and encoder buffers of
     * {@link ClientSettings#DEFAULT_IO_BUFFER_BYTES}; that last size is Tomcat's for the whole JVM, read once when its
     * first container is made, so the first call here (or the plugin's first connect) must come before any other.
     */
    public static List<WsWebSocketContainer> containers(boolean onOurLanes) {
        TomcatBuffers.setIoBufferBytes(ClientSettings.DEFAULT_IO_BUFFER_BYTES);
        List<AsynchronousChannelGroup> lanes = onOurLanes
                ? IoThreads.lanes(ClientSettings.DEFAULT_IO_THREADS)
                : Collections.nCopies(ClientSettings.DEFAULT_IO_THREADS, null);
        List<WsWebSocketContainer> containers = new ArrayList<>();
        for (AsynchronousChannelGroup lane : lanes) {
            containers.add(SharedStompClients.container(
                    lane, TomcatBuffers.PARTIAL_MESSAGE_CHARS, TomcatBuffers.HANDSHAKE_BUFFER_BYTES));
        }
        return containers;
    }
}
