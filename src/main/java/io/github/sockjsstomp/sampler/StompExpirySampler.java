package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.user.Silence;
import io.github.sockjsstomp.threadusers.SilentSessions;
import io.github.sockjsstomp.timing.Run;
import java.util.Iterator;
import java.util.List;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * The end of the run's silent sessions, for a tearDown Thread Group (JMeter runs it once the test's threads
 * are done, before any sampler is torn down, so every session is still as the test left it). The session
 * samplers report a silent session's {@code expired} sample at their checks; a thread that ended, as every
 * thread does when {@code duration} is over, checks no more. Each sample here is one silent session nobody
 * reported: {@code expired} if the server closed it since the last check, failed {@code NotExpired} if it
 * is still open. Once none is left, the variable {@value #PENDING_VARIABLE} is {@code false} (a While
 * Controller loops on it) and the sample is not recorded, so a run without silent sessions shows nothing.
 */
public class StompExpirySampler extends StompSampler {

    static final String PENDING_VARIABLE = "stompExpiryPending";

    private Run run;
    private Iterator<Silence> pending;

    public StompExpirySampler() {
        super(List.of());
    }

    @Override
    protected void setUp(ParameterReader params, String label) {
        run = joinRun(0);
    }

    @Override
    protected SampleResult sample(JavaSamplerContext context, String label) {
        if (pending == null) {
            pending = run.capacity().silentSessions().iterator();
        }
        while (pending.hasNext()) {
            Silence silence = pending.next();
            if (silence.takeReport()) {
                // From here on a close by the server no longer counts: the test ended first.
                silence.giveUp();
                return silence.expired()
                        ? SilentSessions.expired(silence)
                        : SilentSessions.notExpired(silence, System.currentTimeMillis());
            }
        }
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(PENDING_VARIABLE, "false");
        }
        SampleResult nothing = new SampleResult();
        nothing.setIgnore();
        return nothing;
    }
}
