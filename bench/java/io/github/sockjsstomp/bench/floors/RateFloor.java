package io.github.sockjsstomp.bench.floors;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import java.lang.reflect.Type;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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
 * <p>Usage: {@code RateFloor URI LOGIN PASSCODE DESTINATION SUBSCRIBE_TO USERS THREADS PER_USER_PER_MIN
 * TICK_MILLIS SECONDS}; {@code {n}} in LOGIN, DESTINATION and SUBSCRIBE_TO is the user's number (from 1). Prints
 * {@code answered <epoch ms> <total>} every second, so the caller counts replies in its own window. Bench code,
 * never shipped.
 */
public final class RateFloor {

    private static final LongAdder ANSWERED = new LongAdder();

    private RateFloor() {}

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
        SharedStompClients shared = SharedStompClients.get(ClientSettings.defaults());
        List<StompSession> sessions = new ArrayList<>();
        for (int n = 1; n <= users; n++) {
            sessions.add(connect(
                    shared.stompClient(Transport.RAW, false),
                    uri,
                    login.replace("{n}", "" + n),
                    passcode,
                    subscribeTo.replace("{n}", "" + n)));
        }
        System.out.println("connected " + users);
        int perThread = users / threads;
        double intervalNanos = TimeUnit.MINUTES.toNanos(1) / (perUserPerMin * perThread);
        List<Runnable> bodies = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<StompSession> own = sessions.subList(t * perThread, (t + 1) * perThread);
            int first = t * perThread + 1;
            bodies.add(() -> send(own, first, destination, intervalNanos, tickNanos, endNanos));
        }
        FloorLoops.run("senders", bodies, endNanos, ANSWERED::sum);
        System.exit(0);
    }

    static StompSession connect(WebSocketStompClient client, URI uri, String login, String passcode, String subscribeTo)
            throws Exception {
        StompHeaders connect = new StompHeaders();
        connect.setLogin(login);
        connect.setPasscode(passcode);
        connect.setHeartbeat(new long[] {0, 0});
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

    /** One sender thread's open-loop schedule over its sessions, until {@code endNanos}. */
    private static void send(
            List<StompSession> own,
            int firstUser,
            String destination,
            double intervalNanos,
            long tickNanos,
            long endNanos) {
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
                    StompHeaders headers = new StompHeaders();
                    headers.setDestination(destination.replace("{n}", "" + (firstUser + index)));
                    headers.setContentType(MimeTypeUtils.APPLICATION_JSON);
                    String body = "{\"id\":\"floor-" + firstUser + "-" + next + "\",\"seq\":" + next
                            + ",\"user\":\"user-" + (firstUser + index) + "\",\"text\":\"hello\"}";
                    own.get(index).send(headers, body.getBytes(StandardCharsets.UTF_8));
                    next++;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
