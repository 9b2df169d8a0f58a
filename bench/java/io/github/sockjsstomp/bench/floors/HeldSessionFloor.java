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
 * The floor of a held session as a JMeter Java Request: one Spring STOMP session per thread, built as the plugin
 * builds it ({@link SharedStompClients}, plain WebSocket, heart-beats off) and subscribed, with nothing of the
 * plugin around it (no virtual user, no timing, no reconnects). Its live heap per thread, beside the plugin's and
 * the incumbent's in bench/generator_efficiency.py's {@code held} part (side {@code floor-held}), is what Spring's
 * client and JMeter's copy of a Java Request cost before the plugin adds anything. Bench code, never shipped.
 */
public class HeldSessionFloor extends AbstractJavaSamplerClient {

    private static final AtomicInteger USERS = new AtomicInteger();

    private StompSession session;

    @Override
    public Arguments getDefaultParameters() {
        Arguments args = JavaRequestFloor.serverArguments();
        args.addArgument("login", "floor-{n}");
        args.addArgument("passcode", "");
        args.addArgument("subscribeTo", "/user/queue/echo");
        return args;
    }

    @Override
    public SampleResult runTest(JavaSamplerContext context) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(context.getParameter(TestElement.NAME, "session"));
        result.sampleStart();
        try {
            if (session == null) {
                String n = String.valueOf(USERS.incrementAndGet());
                session = RateFloor.connect(
                        SharedStompClients.get(ClientSettings.defaults()).stompClient(Transport.RAW, false),
                        JavaRequestFloor.uri(context),
                        context.getParameter("login").replace("{n}", n),
                        context.getParameter("passcode"),
                        context.getParameter("subscribeTo").replace("{n}", n));
            }
            result.setSuccessful(session.isConnected());
            result.setResponseCode(result.isSuccessful() ? "200" : "NotConnected");
        } catch (Exception e) {
            result.setResponseCode("ConnectFailed");
            result.setResponseMessage(e.toString());
        }
        result.sampleEnd();
        return result;
    }

    @Override
    public void teardownTest(JavaSamplerContext context) {
        if (session != null) {
            session.disconnect();
        }
    }
}
