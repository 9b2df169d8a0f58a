package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.timing.Run;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the live reply summary of a run where JMeter users look: next to JMeter's own "summary +" lines on
 * the console of a headless run, and in jmeter.log. Same interval as JMeter's summariser
 * ({@code summariser.interval}, 30 s unless set); {@code -Jsockjsstomp.replySummary=false} turns it off.
 */
final class ReplySummaries {

    private static final Logger log = LoggerFactory.getLogger("io.github.sockjsstomp.timing.ReplySummary");

    private ReplySummaries() {
    }

    /** Joins the run of the current test, starting its summary if it is the first to join. */
    static Run join(long drainMillis) {
        return Run.join(drainMillis, JMeterContextService.getTestStartTime(), ReplySummaries::start);
    }

    static void start(Run run) {
        if (JMeterUtils.getJMeterProperties() == null
                || !JMeterUtils.getPropDefault(StompParameters.PROPERTY_PREFIX + "replySummary", true)) {
            return;
        }
        long interval = JMeterUtils.getPropDefault("summariser.interval", 30);
        boolean console = JMeter.isNonGUI() && JMeterUtils.getPropDefault("summariser.out", true);
        run.tracker().summarizeEvery(interval, line -> {
            log.info(line);
            if (console) {
                System.out.println(line);
            }
        });
    }
}
