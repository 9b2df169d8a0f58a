package io.github.sockjsstomp.bench.floors;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.socket.WebSocketHttpHeaders;

/**
 * The floor of the closed loop (echo.jmx's {@code loop=closed}) for the plugin's design, without JMeter and without
 * the plugin's timing: {@code users} sessions, each one SEND then, once its MESSAGE came, a pause, again; driven by
 * {@code threads} threads each owning {@code users / threads} of them. A reply is matched by the simplest means: a
 * user has one message in flight, so any MESSAGE on its subscription is its reply. As ours, a user thinks from
 * when its reply was read, and a driver looks at the replies every {@code tickMillis} and sends what is due.
 *
 * <ul>
 * <li>{@code spring}: Spring's STOMP client built as the plugin builds it ({@link SharedStompClients}: I/O lanes,
 *     serialized sends, byte[] payloads), as {@link RateFloor}.
 * <li>{@code tomcat}: Tomcat's WebSocket client alone on the plugin's I/O lanes, STOMP frames written by hand:
 *     what Spring's STOMP layer adds is the difference between the two.
 * </ul>
 *
 * <p>Usage: {@code ClosedLoopFloor spring|tomcat URI LOGIN PASSCODE DESTINATION SUBSCRIBE_TO USERS THREADS
 * PAUSE_MILLIS TICK_MILLIS SECONDS}; {@code {n}} in LOGIN, DESTINATION and SUBSCRIBE_TO is the user's number (from
 * 1). Prints {@code connected N} once all are, then {@code answered <epoch ms> <total>} every second for SECONDS,
 * then {@code sent S answered A}. Bench code, never shipped.
 */
public final class ClosedLoopFloor {

    private static final LongAdder SENT = new LongAdder();
    private static final LongAdder ANSWERED = new LongAdder();

    private ClosedLoopFloor() {}

    /** One user's session as the driver sees it: a way to send its next SEND. */
    interface UserSession {
        void send(String destination, byte[] body) throws Exception;
    }

    /** A thread's users: where the I/O threads queue the users whose reply came, and when it came. */
    static final class Driver {
        final Queue<Integer> replied = new ConcurrentLinkedQueue<>();
        final long[] repliedAt;
        final List<UserSession> sessions = new ArrayList<>();

        Driver(int users) {
            repliedAt = new long[users];
        }

        void replied(int local) {
            repliedAt[local] = System.nanoTime();
            ANSWERED.increment();
            replied.add(local);
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        URI uri = URI.create(args[1]);
        String login = args[2];
        String passcode = args[3];
        String destination = args[4];
        String subscribeTo = args[5];
        int users = Integer.parseInt(args[6]);
        int threads = Integer.parseInt(args[7]);
        long pauseNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[8]));
        long tickNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[9]));
        long seconds = Long.parseLong(args[10]);
        int perThread = users / threads;
        List<Driver> drivers = new ArrayList<>();
        Connector connector = mode.equals("spring") ? new SpringConnector() : new TomcatConnector();
        for (int t = 0; t < threads; t++) {
            Driver driver = new Driver(perThread);
            for (int i = 0; i < perThread; i++) {
                int n = t * perThread + i + 1;
                driver.sessions.add(connectWithRetries(
                        connector,
                        uri,
                        login.replace("{n}", "" + n),
                        passcode,
                        subscribeTo.replace("{n}", "" + n),
                        driver,
                        i));
            }
            drivers.add(driver);
        }
        System.out.println("connected " + perThread * threads);
        long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Runnable> bodies = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Driver driver = drivers.get(t);
            int first = t * perThread + 1;
            bodies.add(() -> drive(driver, first, destination, pauseNanos, tickNanos, endNanos));
        }
        FloorLoops.run("drivers", bodies, endNanos, ANSWERED::sum);
        TimeUnit.SECONDS.sleep(2);
        System.out.println("sent " + SENT.sum() + " answered " + ANSWERED.sum());
        System.exit(0);
    }

    /** A broker still tearing down an earlier run's sessions may time a handshake out: three tries, as a user would. */
    private static UserSession connectWithRetries(
            Connector connector, URI uri, String login, String passcode, String subscribeTo, Driver driver, int local)
            throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return connector.connect(uri, login, passcode, subscribeTo, driver, local);
            } catch (Exception e) {
                if (attempt == 3) {
                    throw e;
                }
                System.out.println("connect failed, trying again: " + e);
                TimeUnit.SECONDS.sleep(1);
            }
        }
    }

    /**
     * One driver's closed loop until {@code endNanos}: its users' first sends spread over one pause, then each user
     * sends again a pause after its reply came; the driver wakes at most every tick.
     */
    private static void drive(
            Driver driver, int firstUser, String destination, long pauseNanos, long tickNanos, long endNanos) {
        int users = driver.sessions.size();
        long[] due = new long[users];
        ArrayDeque<Integer> thinking = new ArrayDeque<>();
        long start = System.nanoTime();
        for (int i = 0; i < users; i++) {
            due[i] = start + pauseNanos * i / users;
            thinking.add(i);
        }
        long[] seq = new long[users];
        long lastWake = start - tickNanos;
        while (true) {
            long now = System.nanoTime();
            if (now - endNanos > 0) {
                return;
            }
            for (Integer user = driver.replied.poll(); user != null; user = driver.replied.poll()) {
                due[user] = driver.repliedAt[user] + pauseNanos;
                thinking.add(user);
            }
            while (!thinking.isEmpty() && due[thinking.peek()] - now <= 0) {
                int user = thinking.poll();
                int n = firstUser + user;
                String body = "{\"id\":\"floor-" + n + "-" + seq[user] + "\",\"seq\":" + seq[user] + ",\"user\":\"user-"
                        + n + "\",\"text\":\"hello\"}";
                seq[user]++;
                try {
                    driver.sessions
                            .get(user)
                            .send(destination.replace("{n}", "" + n), body.getBytes(StandardCharsets.UTF_8));
                    SENT.increment();
                } catch (Exception e) {
                    System.out.println("send failed: " + e);
                }
            }
            lastWake = now;
            long wake =
                    thinking.isEmpty() ? lastWake + tickNanos : Math.max(due[thinking.peek()], lastWake + tickNanos);
            LockSupport.parkNanos(wake - System.nanoTime());
        }
    }

    interface Connector {
        UserSession connect(URI uri, String login, String passcode, String subscribeTo, Driver driver, int local)
                throws Exception;
    }

    /** Spring's STOMP client as the plugin builds it. */
    static final class SpringConnector implements Connector {
        private final SharedStompClients shared = SharedStompClients.get(ClientSettings.defaults());

        @Override
        public UserSession connect(URI uri, String login, String passcode, String subscribeTo, Driver driver, int local)
                throws Exception {
            StompHeaders connect = new StompHeaders();
            connect.setLogin(login);
            connect.setPasscode(passcode);
            connect.setHeartbeat(new long[] {0, 0});
            StompSession session = shared.stompClient(Transport.RAW, false)
                    .connectAsync(uri, new WebSocketHttpHeaders(), connect, new StompSessionHandlerAdapter() {})
                    .get(30, TimeUnit.SECONDS);
            session.subscribe(subscribeTo, new StompFrameHandler() {
                @Override
                public Type getPayloadType(StompHeaders headers) {
                    return byte[].class;
                }

                @Override
                public void handleFrame(StompHeaders headers, Object payload) {
                    driver.replied(local);
                }
            });
            return (destination, body) -> {
                StompHeaders headers = new StompHeaders();
                headers.setDestination(destination);
                headers.setContentType(MimeTypeUtils.APPLICATION_JSON);
                session.send(headers, body);
            };
        }
    }

    /** Tomcat's WebSocket client on the plugin's I/O lanes, STOMP written and read by hand. */
    static final class TomcatConnector implements Connector {
        private final List<WsWebSocketContainer> containers = RoundTripFloor.containers(true);
        private int next;

        @Override
        public UserSession connect(URI uri, String login, String passcode, String subscribeTo, Driver driver, int local)
                throws Exception {
            CompletableFuture<String> connected = new CompletableFuture<>();
            Endpoint endpoint = new Endpoint() {
                @Override
                public void onOpen(Session session, EndpointConfig config) {
                    session.addMessageHandler(String.class, new WholeText(frame -> {
                        if (frame.startsWith("MESSAGE")) {
                            driver.replied(local);
                        } else if (frame.startsWith("CONNECTED")) {
                            connected.complete(frame);
                        } else if (!frame.equals("\n")) {
                            System.out.println("unexpected frame: " + frame);
                        }
                    }));
                }
            };
            ClientEndpointConfig config = ClientEndpointConfig.Builder.create()
                    .preferredSubprotocols(List.of("v12.stomp"))
                    .build();
            Session session = containers.get(next++ % containers.size()).connectToServer(endpoint, config, uri);
            session.getBasicRemote()
                    .sendText("CONNECT\naccept-version:1.2\nlogin:" + login + "\npasscode:" + passcode
                            + "\nheart-beat:0,0\n\n\0"); // no host: RabbitMQ reads it as the virtual host,
            // Spring sends none
            connected.get(30, TimeUnit.SECONDS);
            session.getBasicRemote().sendText("SUBSCRIBE\nid:0\ndestination:" + subscribeTo + "\n\n\0");
            return (destination, body) -> session.getBasicRemote()
                    .sendText("SEND\ndestination:" + destination + "\ncontent-type:application/json\ncontent-length:"
                            + body.length + "\n\n" + new String(body, StandardCharsets.UTF_8) + "\0");
        }
    }
}
