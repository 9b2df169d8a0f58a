package io.github.sockjsstomp.bench.floors;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Session;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * The connect floor of a JMeter plugin: {@link ConnectFloor}'s connect (Tomcat's WebSocket client alone, an upgrade
 * then a STOMP CONNECT written by hand and its CONNECTED read) inside a Java Request that returns one sample per
 * session, as connect.jmx's session sampler does: each JMeter thread owns its share of {@code users}, keeps
 * {@code connectsInFlight} of their connects under way on shared connect threads (Tomcat's {@code connectToServer}
 * blocks its caller) and returns the first to finish, timed from its start to its CONNECTED; heart-beats both ways
 * every {@code heartbeatMillis} from one shared scheduler. Once its users are up a sample waits {@code aliveMillis}
 * and is not reported. Nothing of the plugin runs: no Spring session, no virtual users, no books. What it costs
 * above {@link ConnectFloor} is what JMeter charges per session (an iteration, a sample, its row, the sampler's
 * arguments evaluated and restored, JMeter's code compiled by the JIT); connect.jmx is measured against both
 * (bench/generator_efficiency.py's connects side {@code jfloor:K}). With {@code client=spring} each connect is
 * Spring's {@code WebSocketStompClient.connectAsync} on the plugin's shared client instead ({@link SharedStompClients}:
 * its I/O lanes, connect threads and heart-beat wheels), still nothing of the plugin's virtual users (side
 * {@code sfloor:K}): what Spring's STOMP client adds to Tomcat's, apart from the plugin's per-user work. With
 * {@code client=codec} each connect is a {@link CodecSession} (Spring's STOMP codec on Tomcat's client, on the same
 * connect threads and heart-beat scheduler as {@code tomcat}; side {@code cfloor:K}): Spring's frames without Spring's
 * session layer, which splits what {@code sfloor} adds to {@code jfloor} between the two. Bench code, never shipped.
 */
public class JavaRequestConnectFloor extends AbstractJavaSamplerClient {

    private static final ExecutorService CONNECT_THREADS =
            Executors.newCachedThreadPool(ConnectFloor.daemons("floor-connect-"));
    private static final ClientEndpointConfig CONFIG = ClientEndpointConfig.Builder.create()
            .preferredSubprotocols(List.of("v12.stomp"))
            .build();
    private static final AtomicInteger USERS = new AtomicInteger();

    private final BlockingQueue<SampleResult> finished = new LinkedBlockingQueue<>();
    private final List<Session> open = new ArrayList<>();
    private final List<StompSession> openSpring = new ArrayList<>();
    private final List<CodecSession> openCodec = new ArrayList<>();
    /** Spring's client as the plugin builds it, when {@code client=spring}; null for Tomcat's alone. */
    private WebSocketStompClient spring;
    /** {@code client=codec}: {@link CodecSession}s instead of the hand-written CONNECT. */
    private boolean codec;

    private String login;
    private String passcode;
    private URI uri;
    private String connectFrame;
    private long heartbeatMillis;
    private long aliveMillis;
    private int inFlight;
    private int toConnect;
    private int underWay;

    @Override
    public Arguments getDefaultParameters() {
        Arguments args = JavaRequestFloor.serverArguments();
        args.addArgument("login", "guest");
        args.addArgument("passcode", "guest");
        args.addArgument("users", "1000");
        args.addArgument("connectsInFlight", "8");
        args.addArgument("heartbeatMillis", "10000");
        args.addArgument("aliveMillis", "5000");
        args.addArgument("client", "tomcat");
        return args;
    }

    @Override
    public void setupTest(JavaSamplerContext context) {
        uri = JavaRequestFloor.uri(context);
        heartbeatMillis = context.getLongParameter("heartbeatMillis", 10_000);
        aliveMillis = context.getLongParameter("aliveMillis", 5_000);
        inFlight = context.getIntParameter("connectsInFlight", 8);
        login = context.getParameter("login");
        passcode = context.getParameter("passcode");
        String client = context.getParameter("client", "tomcat");
        if ("spring".equals(client)) {
            spring = SharedStompClients.get(ClientSettings.defaults()).stompClient(Transport.RAW, false);
        }
        codec = "codec".equals(client);
        connectFrame = "CONNECT\naccept-version:1.2\nlogin:" + login + "\npasscode:" + passcode + "\nheart-beat:"
                + heartbeatMillis + "," + heartbeatMillis + "\n\n\0";
        // the thread's share of the group's users, as connect.jmx shares them (shares differ by at most one)
        int users = context.getIntParameter("users", 1000);
        int threads = JMeterContextService.getContext().getThreadGroup().getNumThreads();
        int thread = JMeterContextService.getContext().getThreadNum();
        toConnect = users / threads + (thread < users % threads ? 1 : 0);
    }

    @Override
    public SampleResult runTest(JavaSamplerContext context) {
        while (toConnect > 0 && underWay < inFlight) {
            start();
        }
        if (underWay == 0) {
            return held();
        }
        try {
            SampleResult done = finished.poll(60, TimeUnit.SECONDS);
            if (done == null) {
                return failed("None of " + underWay + " connects finished within 60 s");
            }
            underWay--;
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("Interrupted");
        }
    }

    private void start() {
        toConnect--;
        underWay++;
        int number = USERS.getAndIncrement();
        SampleResult result = new SampleResult();
        result.setSampleLabel("session");
        result.sampleStart();
        if (spring != null) {
            startSpring(result);
            return;
        }
        WsWebSocketContainer container = FloorContainers.forUser(number);
        if (codec) {
            startCodec(container, result);
            return;
        }
        onConnectThread(result, () -> ConnectFloor.connect(container, CONFIG, uri, connectFrame), session -> {
            synchronized (open) {
                open.add(session);
            }
            return () -> ConnectFloor.heartbeat(session);
        });
    }

    /**
     * A blocking connect (Tomcat's {@code connectToServer} blocks its caller) on the connect threads, timed to its
     * CONNECTED; {@code keep} holds the session and says how to write its heart-beat.
     */
    private <S> void onConnectThread(SampleResult result, Callable<S> connect, Function<S, Runnable> keep) {
        CONNECT_THREADS.execute(() -> {
            try {
                S session = connect.call();
                result.sampleEnd();
                FloorHeartbeats.every(heartbeatMillis, keep.apply(session));
                result.setSuccessful(true);
                result.setResponseCodeOK();
            } catch (Exception e) {
                result.sampleEnd();
                result.setResponseCode("ConnectFailed");
                result.setResponseMessage(e.toString());
            }
            finished.add(result);
        });
    }

    /** The codec session's connect: blocking as Tomcat's alone is, on the same connect threads. */
    private void startCodec(WsWebSocketContainer container, SampleResult result) {
        onConnectThread(
                result, () -> CodecSession.connect(container, uri, login, passcode, heartbeatMillis), session -> {
                    synchronized (open) {
                        openCodec.add(session);
                    }
                    return session::heartbeat;
                });
    }

    /** Spring's connect: its connect threads run Tomcat's handshake, an I/O thread reads CONNECTED. */
    private void startSpring(SampleResult result) {
        StompHeaders connect = new StompHeaders();
        connect.setLogin(login);
        connect.setPasscode(passcode);
        connect.setHeartbeat(new long[] {heartbeatMillis, heartbeatMillis});
        spring.connectAsync(uri, new WebSocketHttpHeaders(), connect, new StompSessionHandlerAdapter() {})
                .whenComplete((session, failure) -> {
                    result.sampleEnd();
                    if (failure == null) {
                        synchronized (open) {
                            openSpring.add(session);
                        }
                        result.setSuccessful(true);
                        result.setResponseCodeOK();
                    } else {
                        result.setResponseCode("ConnectFailed");
                        result.setResponseMessage(failure.toString());
                    }
                    finished.add(result);
                });
    }

    /** All up: the thread waits, as connect.jmx's hold does, and the sample is not reported. */
    private SampleResult held() {
        SampleResult nothing = new SampleResult();
        try {
            TimeUnit.MILLISECONDS.sleep(aliveMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        nothing.setIgnore();
        return nothing;
    }

    private static SampleResult failed(String why) {
        SampleResult result = new SampleResult();
        result.setSampleLabel("session");
        result.setResponseCode("Failed");
        result.setResponseMessage(why);
        return result;
    }

    @Override
    public void teardownTest(JavaSamplerContext context) {
        synchronized (open) {
            openSpring.forEach(StompSession::disconnect);
            openCodec.forEach(CodecSession::disconnect);
            for (Session session : open) {
                try {
                    session.getBasicRemote().sendText("DISCONNECT\n\n\0");
                    session.close();
                } catch (Exception e) {
                    // the server may have gone first: nothing to close
                }
            }
        }
    }
}
