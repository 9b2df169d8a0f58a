package io.github.sockjsstomp.broker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.config.impl.SecurityConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyAcceptor;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.spi.core.protocol.RemotingConnection;
import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.InVMLoginModule;

/**
 * ActiveMQ Artemis embedded on a random loopback port: a real STOMP broker that nobody here wrote. It speaks
 * STOMP over plain WebSocket on the same port as over TCP, refuses unknown users with an ERROR frame, and maps
 * {@code /queue/} and {@code /topic/} destinations to anycast and multicast addresses, as brokers are usually
 * set up for browser clients. Addresses under {@value #READ_ONLY_PREFIX} refuse every SEND (an ERROR frame).
 */
public final class ArtemisBroker implements AutoCloseable {

    private static final String ACCEPTOR = "stomp";
    /** Addresses (after /queue/ or /topic/) no user may send to. */
    public static final String READ_ONLY_PREFIX = "readonly.";

    private final EmbeddedActiveMQ broker;
    private final int port;

    private ArtemisBroker(EmbeddedActiveMQ broker, int port) {
        this.broker = broker;
        this.port = port;
    }

    /**
     * Starts a broker that knows exactly these users (login to passcode), each allowed everything, on this
     * loopback port (0: a free one).
     */
    public static ArtemisBroker start(Path dataDir, Map<String, String> users, int port) throws Exception {
        return start(dataDir, users, port, false);
    }

    /**
     * As {@link #start(Path, Map, int)}; with {@code keepQueues} a queue made for a consumer stays when its last
     * consumer leaves, so its counts ({@link #counts}) can be read after the run.
     */
    public static ArtemisBroker start(Path dataDir, Map<String, String> users, int port, boolean keepQueues)
            throws Exception {
        Configuration config = new ConfigurationImpl()
                .setName("artemis-it")
                .setPersistenceEnabled(false)
                .setJMXManagementEnabled(false)
                .setSecurityEnabled(true)
                .addAcceptorConfiguration(
                        ACCEPTOR,
                        "tcp://127.0.0.1:" + port + "?protocols=STOMP"
                                + ";anycastPrefix=/queue/;multicastPrefix=/topic/");
        config.setBrokerInstance(dataDir.toFile());
        config.putSecurityRoles(
                "#", Set.of(new Role("users", true, true, true, true, true, true, true, true, true, true, true, true)));
        config.putSecurityRoles(
                READ_ONLY_PREFIX + "#",
                Set.of(new Role("users", false, true, true, true, true, true, true, true, true, true, true, true)));
        if (keepQueues) {
            config.addAddressSetting(
                    "#", new AddressSettings().setAutoDeleteQueues(false).setAutoDeleteAddresses(false));
        }
        SecurityConfiguration security = new SecurityConfiguration();
        users.forEach((login, passcode) -> {
            security.addUser(login, passcode);
            security.addRole(login, "users");
        });
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ()
                .setConfiguration(config)
                .setSecurityManager(new ActiveMQJAASSecurityManager(InVMLoginModule.class.getName(), security));
        broker.start();
        NettyAcceptor acceptor =
                (NettyAcceptor) broker.getActiveMQServer().getRemotingService().getAcceptor(ACCEPTOR);
        return new ArtemisBroker(broker, acceptor.getActualPort());
    }

    public int port() {
        return port;
    }

    /**
     * The plan properties a user writes to point a plan at this broker: plain WebSocket at its root, no HTTP login
     * steps; then {@code more}.
     */
    public List<String> planProperties(String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "host=127.0.0.1", "port=" + port(), "transport=raw", "endpoint=/", "indexPath=none", "pullPath=none"));
        properties.addAll(Arrays.asList(more));
        return properties;
    }

    /**
     * The queues bound to {@code address} (its name without /queue/ or /topic/) now, each with whether it is
     * durable: a subscription's own queue is temporary and goes with its session, a durable subscription's stays.
     */
    public Map<String, Boolean> queuesBoundTo(String address) throws Exception {
        ActiveMQServer server = broker.getActiveMQServer();
        Map<String, Boolean> queues = new TreeMap<>();
        for (SimpleString name : server.bindingQuery(SimpleString.of(address)).getQueueNames()) {
            Queue queue = server.locateQueue(name);
            if (queue != null) {
                queues.put(name.toString(), queue.isDurable());
            }
        }
        return queues;
    }

    /**
     * A queue's counts as the broker keeps them (what its management's QueueControl reports): messages added,
     * acknowledged (a STOMP NACK too: Artemis acknowledges what a NACK names, it does not deliver it again),
     * waiting (not acknowledged, delivered or not) and delivered but not yet acknowledged.
     */
    public record QueueCounts(long added, long acknowledged, long waiting, long delivering) {}

    /** The counts of queue {@code name} (an anycast address's own queue has its name); all 0 if there is none. */
    public QueueCounts counts(String name) {
        Queue queue = broker.getActiveMQServer().locateQueue(SimpleString.of(name));
        return queue == null
                ? new QueueCounts(0, 0, 0, 0)
                : new QueueCounts(
                        queue.getMessagesAdded(),
                        queue.getMessagesAcknowledged(),
                        queue.getMessageCount(),
                        queue.getDeliveringCount());
    }

    /**
     * Fails every client connection now, as a network that drops them would: the broker ends their sessions, and
     * what their consumers had not acknowledged goes back to its queue, to be delivered again (marked
     * {@code redelivered:true}). Returns how many were dropped.
     */
    public int dropConnections() {
        Set<RemotingConnection> connections =
                broker.getActiveMQServer().getRemotingService().getConnections();
        for (RemotingConnection connection : connections) {
            connection.fail(new ActiveMQException("dropped by the test"));
        }
        return connections.size();
    }

    @Override
    public void close() throws Exception {
        broker.stop();
    }
}
