package io.github.sockjsstomp.warmup;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;

/**
 * The JVM's shared clients as a thread gets them for its users: built once ({@link SharedStompClients}, sized by
 * the first settings), and, when the plan times messages, warmed for the users' transport before the thread's first
 * connect ({@link WarmUp}; the other threads wait meanwhile, so no message is timed through cold code).
 *
 * <p>Why here: building the clients is {@code client.wiring}'s, warming them is this room's, and the import order
 * (ARCHITECTURE.md: each package uses only those above it) puts {@code warmup} below {@code client.wiring}, so this
 * is the highest room that sees both; {@code client.wiring} cannot call the warm-up. The samplers' parameter
 * readers hand their settings here and build nothing for the whole JVM themselves.
 */
public final class WarmedClients {

    private WarmedClients() {}

    /**
     * The shared clients, warmed first for {@code transport} with the users' {@code heartbeatMillis} unless {@code
     * warmUp} is false or this JVM warmed that transport already.
     */
    public static SharedStompClients get(
            ClientSettings settings, Transport transport, long heartbeatMillis, boolean warmUp) {
        SharedStompClients shared = SharedStompClients.get(settings);
        if (warmUp) {
            WarmUp.once(shared, transport, heartbeatMillis, WarmUp.DEFAULT_MESSAGES, WarmUp.DEFAULT_LIMIT_MILLIS);
        }
        return shared;
    }
}
