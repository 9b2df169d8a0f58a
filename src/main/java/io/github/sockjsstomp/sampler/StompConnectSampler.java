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
 * <p>After each sample the variable {@value StompParameters#ALL_CONNECTED_VARIABLE} says whether all of the
 * thread's sessions are up ({@code true} after an alive check), so a plan holds only then and connects the
 * sessions of a thread back to back. The sessions are connected in order first; only after that does a
 * sample look over all of them for one to reconnect, so connecting N sessions costs N samples, not N².
 *
 * <p>It is also the session sampler of the send plans: a send sampler after it in the same thread, given no
 * connection parameters of its own, sends on these sessions (see {@link ThreadSessions}).
 */
public class StompConnectSampler extends AbstractStompSampler {

    private static final String ALIVE = " alive";

    private int cursor;
    /** Sessions connected in order so far: the first pass. */
    private int firstPass;

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
    protected boolean publishesSessions() {
        return true;
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) throws InterruptedException {
        SampleResult result = sampleNext(label);
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(StompParameters.ALL_CONNECTED_VARIABLE, Boolean.toString(result.getSampleLabel()
                    .equals(label + ALIVE)));
        }
        return result;
    }

    private SampleResult sampleNext(String label) throws InterruptedException {
        int count = sessions().size();
        if (firstPass < count) {
            return connectSample(sessions().get(firstPass++), label);
        }
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
        SampleResult alive = SampleResults.newResult(label + ALIVE);
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

}
