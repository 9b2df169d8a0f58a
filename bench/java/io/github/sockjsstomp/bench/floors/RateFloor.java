package io.github.sockjsstomp.bench.floors;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * The floor of the many-users shape for the plugin's design, without JMeter and without the plugin's timing:
 * Spring's STOMP client over Tomcat's, built as the plugin builds it ({@link SharedStompClients}: I/O lanes,
 * serialized sends, byte[] payloads), {@code users} sessions on plain WebSocket, {@code threads} sender threads
 * each owning {@code users / threads} of them and sending on a schedule (message i of a thread at its start + i x
 * interval, waking at most every {@code tickMillis} and sending what is due, round-robin), every reply counted
 * by Spring's subscription handler and nothing else. What the generator costs per message above this is JMeter's
 * sample loop and the plugin's timing (tracker, timing log, expiry).
 *
 * <p>With MODE {@code codec} the sessions are {@link CodecSession}s instead: Spring's STOMP codec straight on Tomcat's
 * client (its containers on the plugin's I/O lanes, as {@link RoundTripFloor} makes them), the same schedule and the
 * same counting, so that the two modes differ by Spring's session layer alone (WebSocketStompClient's adapter,
 * BufferingStompDecoder, DefaultStompSession, the plugin's SerializedSession). Tomcat's containers are sized as the
 * plugin sizes its own ({@code FloorLanes}: 1 KB session buffers, text messages in pieces).
 *
 * <p>Usage: {@code RateFloor URI LOGIN PASSCODE DESTINATION SUBSCRIBE_TO USERS THREADS PER_USER_PER_MIN
 * TICK_MILLIS SECONDS [MODE]}, MODE {@code spring} (the default) or {@code codec}; {@code {n}} in LOGIN,
 * DESTINATION and SUBSCRIBE_TO is the user's number (from 1). Prints
 * {@code answered <epoch ms> <total>} every second, so the caller counts replies in its own window. Bench code,
 * never shipped.
 */
public final class RateFloor {

    private static final LongAdder ANSWERED = new LongAdder();

    private RateFloor() {}

    /** What a sender thread needs of a session, whichever STOMP session it is. */
    private interface Sender {

        void send(String destination, byte[] body);
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        String login = args[1];
        String passcode = args[2];
        String destination = args[3];
        String subscribeTo = args[4];
        int users = Integer.parseInt(args[5]);
        int threads = Integer.parseInt(args[6]);
        double perUserPerMin = Double.parseDouble(args[7]);
        long tickNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[8]));
        long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[9]));
        boolean codec = args.length > 10 && "codec".equals(args[10]);
        List<Sender> sessions = new ArrayList<>();
        if (codec) {
            List<WsWebSocketContainer> containers = RoundTripFloor.containers(true);
            for (int n = 1; n <= users; n++) {
                sessions.add(connectCodec(
                        containers.get(n % containers.size()),
                        uri,
                        login.replace("{n}", "" + n),
                        passcode,
                        subscribeTo.replace("{n}", "" + n)));
            }
        } else {
            SharedStompClients shared = SharedStompClients.get(ClientSettings.defaults());
            for (int n = 1; n <= users; n++) {
                StompSession session = connect(
                        shared.stompClient(Transport.RAW, false),
                        uri,
                        login.replace("{n}", "" + n),
                        passcode,
                        subscribeTo.replace("{n}", "" + n));
                sessions.add((to, body) -> {
                    StompHeaders headers = new StompHeaders();
                    headers.setDestination(to);
                    headers.setContentType(MimeTypeUtils.APPLICATION_JSON);
                    session.send(headers, body);
                });
            }
        }
        System.out.println("connected " + users);
        int perThread = users / threads;
        double intervalNanos = TimeUnit.MINUTES.toNanos(1) / (perUserPerMin * perThread);
        List<Runnable> bodies = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Sender> own = sessions.subList(t * perThread, (t + 1) * perThread);
            int first = t * perThread + 1;
            bodies.add(() -> send(own, first, destination, intervalNanos, tickNanos, endNanos));
        }
        FloorLoops.run("senders", bodies, endNanos, ANSWERED::sum);
        System.exit(0);
    }

    static StompSession connect(WebSocketStompClient client, URI uri, String login, String passcode, String subscribeTo)
            throws Exception {
        return connect(client, uri, login, passcode, subscribeTo, 0);
    }

    /** A Spring session, heart-beats {@code heartbeatMillis} both ways (0: off), its replies counted. */
    static StompSession connect(
            WebSocketStompClient client,
            URI uri,
            String login,
            String passcode,
            String subscribeTo,
            long heartbeatMillis)
            throws Exception {
        StompHeaders connect = new StompHeaders();
        connect.setLogin(login);
        connect.setPasscode(passcode);
        connect.setHeartbeat(new long[] {heartbeatMillis, heartbeatMillis});
        StompSession session = client.connectAsync(
                        uri, new WebSocketHttpHeaders(), connect, new StompSessionHandlerAdapter() {})
                .get(30, TimeUnit.SECONDS);
        session.subscribe(subscribeTo, new StompFrameHandler() {
            @Override
            public Type getPayloadType(StompHeaders headers) {
                return byte[].class;
            }

            @Override
            public void handleFrame(StompHeaders headers, Object payload) {
                ANSWERED.increment();
            }
        });
        return session;
    }

    /** A codec session, its replies counted by their subscription's id as Spring's session counts them. */
    private static Sender connectCodec(
            WsWebSocketContainer container, URI uri, String login, String passcode, String subscribeTo)
            throws Exception {
        CodecSession session = CodecSession.connect(container, uri, login, passcode, 0);
        session.subscribe(subscribeTo, ANSWERED::increment);
        return (to, body) -> {
            try {
                session.send(to, MimeTypeUtils.APPLICATION_JSON, body);
            } catch (IOException e) {
                // as Spring's send fails: unchecked, ending the sender thread
                throw new UncheckedIOException(e);
            }
        };
    }

    /** One sender thread's open-loop schedule over its sessions, until {@code endNanos}. */
    private static void send(
            List<Sender> own, int firstUser, String destination, double intervalNanos, long tickNanos, long endNanos) {
        long start = System.nanoTime();
        long next = 0;
        long lastWake = start - tickNanos;
        try {
            while (true) {
                long due = start + (long) (next * intervalNanos);
                long wake = Math.max(due, lastWake + tickNanos);
                if (wake - endNanos > 0) {
                    return;
                }
                long wait = wake - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long now = System.nanoTime();
                lastWake = now;
                while (start + (long) (next * intervalNanos) - now <= 0) {
                    int index = (int) (next % own.size());
                    String body = "{\"id\":\"floor-" + firstUser + "-" + next + "\",\"seq\":" + next
                            + ",\"user\":\"user-" + (firstUser + index) + "\",\"text\":\"hello\"}";
                    own.get(index)
                            .send(
                                    destination.replace("{n}", "" + (firstUser + index)),
                                    body.getBytes(StandardCharsets.UTF_8));
                    next++;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
