package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.timing.TimingOptions;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Connections only (the seed's NoSubscritionConnectionTest): the first sample logs in and connects, one
 * sub-result per step, with connect time set; the session then stays open with its heart-beats. Later
 * samples check it is still alive: a session the server dropped is reported once as ConnectionLost, and the
 * sample after that connects again.
 */
public class StompConnectSampler extends AbstractStompSampler {

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
        if (user.isConnected()) {
            SampleResult alive = SampleResults.newResult(label + " alive");
            alive.sampleStart();
            alive.sampleEnd();
            SampleResults.ok(alive, "Session alive: " + user + ", " + user.messagesReceived()
                    + " messages received");
            return alive;
        }
        if (wasConnected()) {
            forgetConnection();
            return SampleResults.immediateFailure(label, SampleResults.CONNECTION_LOST, user.notConnectedReason());
        }
        return connectSample(label);
    }
}
