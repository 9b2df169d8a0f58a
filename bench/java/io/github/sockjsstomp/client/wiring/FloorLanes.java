package io.github.sockjsstomp.client.wiring;

import java.nio.channels.AsynchronousChannelGroup;
import java.util.ArrayList;
import java.util.List;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The floors' one door into the plugin's I/O lanes: Tomcat's WebSocket containers on {@link IoThreads}' lanes, as
 * {@link SharedStompClients} builds them. {@code IoThreads} is package-private in the plugin (no other package needs
 * its lanes), so this benchmark class lives in the plugin's package, in the benchmark source root ({@code bench/java},
 * never in the jar); the floors themselves are in {@code io.github.sockjsstomp.bench.floors}.
 */
public final class FloorLanes {

    private FloorLanes() {}

    /**
     * One container per I/O lane ({@link ClientSettings#DEFAULT_IO_THREADS}), connections spread over them by the
     * caller; on the plugin's I/O lanes, or with {@code onOurLanes} false on Tomcat's own I/O group.
     */
    public static List<WsWebSocketContainer> containers(boolean onOurLanes) {
        List<WsWebSocketContainer> containers = new ArrayList<>();
        for (int i = 0; i < ClientSettings.DEFAULT_IO_THREADS; i++) {
            containers.add(new WsWebSocketContainer());
        }
        if (onOurLanes) {
            List<AsynchronousChannelGroup> lanes = IoThreads.lanes(ClientSettings.DEFAULT_IO_THREADS);
            for (int i = 0; i < lanes.size(); i++) {
                IoThreads.install(containers.get(i), lanes.get(i));
            }
        }
        return containers;
    }
}
