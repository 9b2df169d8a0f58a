package io.github.sockjsstomp.bench.floors;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The floor of an await-reply echo as a JMeter Java Request: {@link RoundTripFloor}'s {@code tomcat} round trip
 * (Tomcat's WebSocket client on the plugin's I/O threads, STOMP frames as constant text) inside a Java Request
 * sample, with nothing of the plugin between them: no Spring STOMP session, no correlation, no timing log. What
 * it costs above {@code RoundTripFloor tomcat} is what JMeter charges for one Java Request sample per round trip
 * (bench/generator_efficiency.py's echo side {@code floor-java}). Bench code, never shipped.
 */
public class JavaRequestFloor extends AbstractJavaSamplerClient {

    private static final List<WsWebSocketContainer> CONTAINERS = RoundTripFloor.containers(true);
    private static final AtomicInteger USERS = new AtomicInteger();

    private RoundTripFloor.Connection connection;
    private int number;
    private long sent;
    private String setupFailure;

    @Override
    public Arguments getDefaultParameters() {
        return serverArguments();
    }

    /** The arguments both Java Request floors take to reach the server: host, port and endpoint. */
    static Arguments serverArguments() {
        Arguments args = new Arguments();
        args.addArgument("host", "127.0.0.1");
        args.addArgument("port", "8080");
        args.addArgument("endpoint", "/stomp-ws");
        return args;
    }

    /** The plain WebSocket URI those arguments name. */
    static URI uri(JavaSamplerContext context) {
        return URI.create("ws://" + context.getParameter("host") + ":" + context.getParameter("port")
                + context.getParameter("endpoint"));
    }

    @Override
    public void setupTest(JavaSamplerContext context) {
        number = USERS.getAndIncrement();
        try {
            connection = RoundTripFloor.tomcat(CONTAINERS.get(number % CONTAINERS.size()), uri(context));
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
        result.setSampleLabel(context.getParameter(TestElement.NAME, "echo"));
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
