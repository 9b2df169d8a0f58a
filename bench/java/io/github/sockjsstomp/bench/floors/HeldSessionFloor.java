package io.github.sockjsstomp.bench.floors;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.springframework.messaging.simp.stomp.StompSession;

/**
 * The floor of a held session as a JMeter Java Request: one STOMP session per thread, subscribed, heart-beats
 * {@code heartbeatMillis} both ways (connect.jmx's default, 10 s), with nothing of the plugin around it (no virtual
 * user, no timing, no reconnects). With {@code client=spring} (the default) it is Spring's STOMP session built as the
 * plugin builds it ({@link SharedStompClients}, plain WebSocket, its heart-beat wheels); with {@code client=codec} a
 * {@link CodecSession} (Spring's STOMP codec on Tomcat's client, its containers on the plugin's I/O lanes and sized as
 * the plugin's, its heart-beats written from {@link FloorHeartbeats}' one thread). Its live heap per thread, beside
 * the plugin's and the incumbent's in bench/held.py's {@code held} part (sides {@code floor-held} and
 * {@code cfloor-held}), is what Spring's client, or a session of our own on Spring's codec, and JMeter's copy of a
 * Java Request cost before the plugin adds anything. Bench code, never shipped.
 */
public class HeldSessionFloor extends AbstractJavaSamplerClient {

    private static final AtomicInteger USERS = new AtomicInteger();

    private StompSession session;
    private CodecSession codecSession;

    @Override
    public Arguments getDefaultParameters() {
        Arguments args = JavaRequestFloor.serverArguments();
        args.addArgument("login", "floor-{n}");
        args.addArgument("passcode", "");
        args.addArgument("subscribeTo", "/user/queue/echo");
        args.addArgument("heartbeatMillis", "10000");
        args.addArgument("client", "spring");
        return args;
    }

    @Override
    public SampleResult runTest(JavaSamplerContext context) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(context.getParameter(TestElement.NAME, "session"));
        result.sampleStart();
        try {
            if (session == null && codecSession == null) {
                connect(context);
            }
            result.setSuccessful(codecSession != null || session.isConnected());
            result.setResponseCode(result.isSuccessful() ? "200" : "NotConnected");
        } catch (Exception e) {
            result.setResponseCode("ConnectFailed");
            result.setResponseMessage(e.toString());
        }
        result.sampleEnd();
        return result;
    }

    private void connect(JavaSamplerContext context) throws Exception {
        int number = USERS.incrementAndGet();
        String n = String.valueOf(number);
        String login = context.getParameter("login").replace("{n}", n);
        String passcode = context.getParameter("passcode");
        String subscribeTo = context.getParameter("subscribeTo").replace("{n}", n);
        long heartbeatMillis = context.getLongParameter("heartbeatMillis", 10_000);
        String client = context.getParameter("client", "spring");
        switch (client) {
            case "spring" ->
                session = RateFloor.connect(
                        SharedStompClients.get(ClientSettings.defaults()).stompClient(Transport.RAW, false),
                        JavaRequestFloor.uri(context),
                        login,
                        passcode,
                        subscribeTo,
                        heartbeatMillis);
            case "codec" -> {
                CodecSession codec = CodecSession.connect(
                        FloorContainers.forUser(number),
                        JavaRequestFloor.uri(context),
                        login,
                        passcode,
                        heartbeatMillis);
                codec.subscribe(subscribeTo, () -> {});
                FloorHeartbeats.every(heartbeatMillis, codec::heartbeat);
                codecSession = codec;
            }
            default -> throw new IllegalArgumentException("client: spring or codec, was '" + client + "'");
        }
    }

    @Override
    public void teardownTest(JavaSamplerContext context) {
        if (session != null) {
            session.disconnect();
        }
        if (codecSession != null) {
            codecSession.disconnect();
        }
    }
}
