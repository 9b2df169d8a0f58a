package io.github.sockjsstomp.bench.floors;

import java.util.List;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The Java Request floors' Tomcat containers, one set per JVM on the plugin's I/O lanes and sized as the plugin's
 * ({@link RoundTripFloor#containers}), made on the first connect that needs one: a floor on Spring's client as the
 * plugin builds it ({@code client=spring}) uses {@code SharedStompClients}' containers and makes none of these, so it
 * runs no idle I/O lanes beside its own.
 */
final class FloorContainers {

    private FloorContainers() {}

    /** The container of user {@code number}: users spread over the lanes round-robin, as the plugin spreads them. */
    static WsWebSocketContainer forUser(int number) {
        return Holder.CONTAINERS.get(Math.floorMod(number, Holder.CONTAINERS.size()));
    }

    /** Made when {@link #forUser} is first called (the JVM initialises a holder class on its first use). */
    private static final class Holder {
        static final List<WsWebSocketContainer> CONTAINERS = RoundTripFloor.containers(true);
    }
}
