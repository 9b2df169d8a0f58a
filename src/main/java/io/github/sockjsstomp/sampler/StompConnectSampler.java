package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingStompUser;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Connections only (the connection-capacity test): while some of the thread's sessions are not connected,
 * each sample logs in and connects the next one, one sub-result per step, connect time set; the sessions
 * then stay open with their heart-beats. Once all are up, a sample checks they are still alive: a session the
 * server dropped is reported once as ConnectionLost, and a later sample connects it again.
 *
 * <p>After each sample the variable {@value StompParameters#SESSIONS_TO_CONNECT_VARIABLE} holds how many
 * sessions are still to connect, so a plan can skip its hold time while a thread connects its sessions.
 */
public class StompConnectSampler extends AbstractStompSampler {

    private int cursor;

    @Override
    protected void addParameters(Arguments args) {
        // Connection parameters only.
    }

    @Override
    protected TimingOptions readParameters(ParameterReader params) {
        return new TimingOptions(Long.parseLong(StompParameters.REPLY_TIMEOUT_MILLIS_DEFAULT), 1, false,
                StompParameters.ID_HEADER_DEFAULT, null);
    }

    @Override
    protected boolean connectsInSetup() {
        return false;
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        try {
            return sampleNext(label);
        } finally {
            JMeterVariables variables = JMeterContextService.getContext().getVariables();
            if (variables != null) {
                variables.putObject(StompParameters.SESSIONS_TO_CONNECT_VARIABLE, Integer.toString(toConnect()));
            }
        }
    }

    private SampleResult sampleNext(String label) throws InterruptedException {
        int count = sessions().size();
        for (int i = 0; i < count; i++) {
            TimingStompUser user = sessions().get((cursor + i) % count);
            if (user.isConnected()) {
                continue;
            }
            cursor = (cursor + i + 1) % count;
            if (user.everConnected() && !user.lossReported()) {
                user.markLossReported();
                return SampleResults.immediateFailure(label, SampleResults.CONNECTION_LOST,
                        user.notConnectedReason() + ": " + user);
            }
            return connectSample(user, label);
        }
        return alive(label);
    }

    private SampleResult alive(String label) {
        SampleResult alive = SampleResults.newResult(label + " alive");
        alive.sampleStart();
        long received = 0;
        for (TimingStompUser user : sessions()) {
            received += user.messagesReceived();
        }
        alive.sampleEnd();
        int count = sessions().size();
        SampleResults.ok(alive, (count == 1 ? "Session alive: " + sessions().get(0) : count + " sessions alive")
                + ", " + received + " messages received");
        return alive;
    }

    private int toConnect() {
        int pending = 0;
        for (TimingStompUser user : sessions()) {
            if (!user.isConnected()) {
                pending++;
            }
        }
        return pending;
    }
}
