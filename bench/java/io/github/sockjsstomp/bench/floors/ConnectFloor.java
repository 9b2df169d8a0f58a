package io.github.sockjsstomp.bench.floors;

import com.sun.management.OperatingSystemMXBean;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The connect floor of the plugin's design: Tomcat's WebSocket client alone (the containers on the plugin's I/O
 * lanes, as {@link RoundTripFloor}), each session an upgrade then a STOMP CONNECT written by hand and its CONNECTED
 * read, {@code inFlight} connects under way at once on as many connect threads (Tomcat's {@code connectToServer}
 * blocks its caller, as it blocks the plugin's connect lanes), no JMeter, no Spring, no timing. What a session's
 * connect costs the stack the plugin is built on: the plugin's connect path is measured against it, and the lean Go
 * client ({@code bench/lean-connect}) beside it says what another stack pays.
 *
 * <p>Usage: {@code ConnectFloor URI LOGIN PASSCODE SESSIONS IN_FLIGHT HOLD_SECONDS [HEARTBEAT_MILLIS]}, IN_FLIGHT the
 * connects under way in all (bench/connects.py's side {@code floor:K} gives it K per JMeter thread of the plugin's
 * side, times its threads). Prints {@code halfway} once half the sessions have connected, then one line of
 * {@code key=value} pairs as the lean client does ({@code connected failed wall_s per_s cpu_s cpu_us_per_session
 * p50_ms p99_ms}: the rate from the first connect's start to the last one's end, the process's CPU over the same
 * span, class loading and JIT included, as JMeter's is; and {@code cpu_us_second_half}, the CPU per session of the
 * second half of the sessions, once most of the JIT's work is done), holds the sessions
 * {@code HOLD_SECONDS}, then closes them. With {@code HEARTBEAT_MILLIS} above 0 each session asks for heart-beats
 * both ways at that period and writes its own from one shared scheduler, as connect.jmx's sessions do with their
 * plan's {@code heartbeatMillis}: the held sessions' price during the connects, side by side with the plan's.
 * Bench code, never shipped.
 */
public final class ConnectFloor {

    private ConnectFloor() {}

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        String login = args[1];
        String passcode = args[2];
        int sessions = Integer.parseInt(args[3]);
        int inFlight = Integer.parseInt(args[4]);
        long holdSeconds = Long.parseLong(args[5]);
        long heartbeatMillis = args.length > 6 ? Long.parseLong(args[6]) : 0;
        List<WsWebSocketContainer> containers = RoundTripFloor.containers(true);
        // no host header: RabbitMQ reads it as the virtual host, and Spring's client sends none
        String connect = "CONNECT\naccept-version:1.2\nlogin:" + login + "\npasscode:" + passcode + "\nheart-beat:"
                + heartbeatMillis + "," + heartbeatMillis + "\n\n\0";
        ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(named("floor-heartbeat-"));
        ClientEndpointConfig config = ClientEndpointConfig.Builder.create()
                .preferredSubprotocols(List.of("v12.stomp"))
                .build();
        List<Session> open = Collections.synchronizedList(new ArrayList<>(sessions));
        long[] tookNanos = new long[sessions];
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        ExecutorService connectThreads = Executors.newFixedThreadPool(inFlight, named("floor-connect-"));
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        AtomicInteger done = new AtomicInteger();
        CountDownLatch allDone = new CountDownLatch(1);
        AtomicLong halfway = new AtomicLong(); // the process's CPU when half the sessions had connected
        for (int i = 0; i < sessions; i++) {
            int n = i;
            WsWebSocketContainer container = containers.get(i % containers.size());
            connectThreads.execute(() -> {
                long began = System.nanoTime();
                try {
                    Session session = connect(container, config, uri, connect);
                    open.add(session);
                    tookNanos[n] = System.nanoTime() - began;
                    if (heartbeatMillis > 0) {
                        heartbeats.scheduleWithFixedDelay(
                                () -> heartbeat(session), heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
                    }
                } catch (Exception e) {
                    failed.incrementAndGet();
                    firstFailure.compareAndSet(null, e);
                    tookNanos[n] = -1;
                }
                int finished = done.incrementAndGet();
                if (finished == sessions / 2) {
                    halfway.set(os.getProcessCpuTime());
                    // for a reader of the threads' CPU by kind over the second half (the bench)
                    System.out.println("halfway");
                }
                if (finished == sessions) {
                    allDone.countDown();
                }
            });
        }
        // the connect threads stay until the figures are out: a reader of the threads' CPU (the bench) sees theirs
        if (!allDone.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("connects still under way after 10 minutes");
        }
        double wallSeconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (os.getProcessCpuTime() - cpuBefore) / 1e9;
        long[] ok = Arrays.stream(tookNanos).filter(t -> t >= 0).sorted().toArray();
        int connected = open.size();
        long cpuAfter = os.getProcessCpuTime();
        System.out.printf(
                "connected=%d failed=%d wall_s=%.3f per_s=%.1f cpu_s=%.3f cpu_us_per_session=%.1f p50_ms=%.1f"
                        + " p99_ms=%.1f cpu_us_second_half=%.1f%n",
                connected,
                failed.get(),
                wallSeconds,
                connected / wallSeconds,
                cpuSeconds,
                cpuSeconds * 1e6 / Math.max(connected, 1),
                percentileMillis(ok, 0.5),
                percentileMillis(ok, 0.99),
                (cpuAfter - halfway.get()) / 1e3 / Math.max(sessions - sessions / 2, 1));
        if (firstFailure.get() != null) {
            System.err.println("first failure: " + firstFailure.get());
        }
        connectThreads.shutdown();
        TimeUnit.SECONDS.sleep(holdSeconds);
        heartbeats.shutdownNow();
        for (Session session : open) {
            try {
                session.getBasicRemote().sendText("DISCONNECT\n\n\0");
                session.close();
            } catch (Exception e) {
                // the server may have gone first: nothing to close
            }
        }
        System.exit(0);
    }

    /** Upgrade, CONNECT, and wait for CONNECTED: one session as the lean client opens it. */
    static Session connect(WsWebSocketContainer container, ClientEndpointConfig config, URI uri, String connectFrame)
            throws Exception {
        CompletableFuture<String> connected = new CompletableFuture<>();
        Endpoint endpoint = new Endpoint() {
            @Override
            public void onOpen(Session session, EndpointConfig endpointConfig) {
                session.addMessageHandler(String.class, new WholeText(connected::complete));
            }
        };
        Session session = container.connectToServer(endpoint, config, uri);
        session.getBasicRemote().sendText(connectFrame);
        String reply = connected.get(30, TimeUnit.SECONDS);
        if (!reply.startsWith("CONNECTED")) {
            session.close();
            throw new IllegalStateException("not CONNECTED: " + reply.substring(0, Math.min(200, reply.length())));
        }
        return session;
    }

    /** Threads named by their job, so that the bench's CPU by thread kind says which is which. */
    static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> new Thread(task, prefix + count.incrementAndGet());
    }

    /** Daemon threads named by their job: JMeter's JVM ends at the test's end, and the bench reads CPU by kind. */
    static ThreadFactory daemons(String prefix) {
        ThreadFactory named = named(prefix);
        return task -> {
            Thread thread = named.newThread(task);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A STOMP heart-beat: an end of line, written as Spring's session writes its own. */
    static void heartbeat(Session session) {
        try {
            session.getBasicRemote().sendText("\n");
        } catch (Exception e) {
            // a session the server closed: it is counted as lost by nobody here, as the lean client does
        }
    }

    private static double percentileMillis(long[] sortedNanos, double p) {
        if (sortedNanos.length == 0) {
            return 0;
        }
        return sortedNanos[(int) (p * (sortedNanos.length - 1))] / 1e6;
    }
}
