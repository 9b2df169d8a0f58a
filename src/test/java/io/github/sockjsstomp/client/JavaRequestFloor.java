package io.github.sockjsstomp.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The floor of an await-reply echo as a JMeter Java Request: {@link RoundTripFloor}'s {@code tomcat} round trip
 * (Tomcat's WebSocket client on the plugin's I/O threads, STOMP frames as constant text) inside a Java Request
 * sample, with nothing of the plugin between them: no Spring STOMP session, no correlation, no timing log. What
 * it costs above {@code RoundTripFloor tomcat} is what JMeter charges for one Java Request sample per round trip
 * (bench/generator_efficiency.py's echo side {@code floor-java}). Bench code, never shipped.
 */
public class JavaRequestFloor extends AbstractJavaSamplerClient {

    /** As the plugin does: one container per I/O lane, connections spread over them. */
    private static final List<WsWebSocketContainer> CONTAINERS = containers();
    private static final AtomicInteger USERS = new AtomicInteger();

    private RoundTripFloor.Connection connection;
    private int number;
    private long sent;
    private String setupFailure;

    private static List<WsWebSocketContainer> containers() {
        List<WsWebSocketContainer> containers = new ArrayList<>();
        for (var lane : IoThreads.lanes(ClientSettings.DEFAULT_IO_THREADS)) {
            WsWebSocketContainer container = new WsWebSocketContainer();
            IoThreads.install(container, lane);
            containers.add(container);
        }
        return containers;
    }

    @Override
    public Arguments getDefaultParameters() {
        Arguments args = new Arguments();
        args.addArgument("host", "127.0.0.1");
        args.addArgument("port", "8080");
        args.addArgument("endpoint", "/stomp-ws");
        return args;
    }

    @Override
    public void setupTest(JavaSamplerContext context) {
        number = USERS.getAndIncrement();
        URI uri = URI.create("ws://" + context.getParameter("host") + ":" + context.getParameter("port")
                + context.getParameter("endpoint"));
        try {
            connection = RoundTripFloor.tomcat(CONTAINERS.get(number % CONTAINERS.size()), uri);
            connection.send(String.format(RoundTripFloor.CONNECT, number));
            RoundTripFloor.expect(connection.receive(), "CONNECTED");
            connection.send(RoundTripFloor.SUBSCRIBE);
        } catch (Exception e) {
            setupFailure = e.toString();
        }
    }

    @Override
    public SampleResult runTest(JavaSamplerContext context) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(context.getParameter("TestElement.name", "echo"));
        if (setupFailure != null) {
            result.setResponseCode("SetupFailed");
            result.setResponseMessage(setupFailure);
            return result;
        }
        result.sampleStart();
        try {
            connection.send(String.format(RoundTripFloor.SEND, number, sent++, number));
            String reply = connection.receive();
            result.sampleEnd();
            result.setSuccessful(reply.startsWith("MESSAGE"));
            result.setResponseCode(result.isSuccessful() ? "200" : "UnexpectedFrame");
            result.setResponseData(reply.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            result.sampleEnd();
            result.setResponseCode("SendFailed");
            result.setResponseMessage(e.toString());
        }
        return result;
    }
}
