package io.github.sockjsstomp.samples;

import io.github.sockjsstomp.client.PluginVersion;
import io.github.sockjsstomp.properties.PlanVocabulary;
import io.github.sockjsstomp.properties.Problems;
import io.github.sockjsstomp.properties.TypedProperties;
import io.github.sockjsstomp.timing.Run;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a run speaks to JMeter users: its live reply summary next to JMeter's own "summary +" lines on the
 * console of a headless run and in jmeter.log (every {@code summariser.interval}, 30 s unless set;
 * {@code -Jsockjsstomp.replySummary=false} turns it off), and problems that break its figures (a timing log
 * that cannot be written), said at once on the console. Such a problem stops the test, since its figures are
 * gone; {@code -Jsockjsstomp.onTimingLogFailure=continue} keeps it running.
 */
public final class RunReports {

    private static final Logger summaryLog = LoggerFactory.getLogger("io.github.sockjsstomp.timing.ReplySummary");
    private static final Logger log = LoggerFactory.getLogger(RunReports.class);
    /** The version line's own logger, which our log4j2.xml sends to jmeter.log as well as to the plugin's log. */
    private static final Logger versionLog = LoggerFactory.getLogger("io.github.sockjsstomp.Version");

    static final String ON_TIMING_LOG_FAILURE = PlanVocabulary.JVM_WIDE_PREFIX + "onTimingLogFailure";

    private RunReports() {}

    /**
     * Joins the run of the current test; the first sampler to join names the plugin and its version (the run's first
     * line: {@code stomp: jmeter-sockjs-stomp/0.1.0}), starts its reports and says what it finds in the typed properties
     * ({@link TypedProperties}); what must stop the test goes to {@code problems}.
     */
    public static Run join(long drainMillis, Problems problems) {
        return Run.join(drainMillis, JMeterContextService.getTestStartTime(), run -> {
            say(versionLog, versionLine());
            TypedProperties.check(problems, !EngineName.LOCAL.equals(EngineName.current()));
            start(run);
        });
    }

    /**
     * The first line of every run, on the console and in jmeter.log: which plugin and version made its figures, in
     * the form of the handshakes' {@code User-Agent} ({@code stomp: jmeter-sockjs-stomp/0.1.0}).
     */
    static String versionLine() {
        return "stomp: " + PluginVersion.PRODUCT;
    }

    /**
     * A line for the people who run the test (the plugin's version, a stepped run's verdicts and answer): jmeter.log,
     * and the console when it is seen.
     */
    public static void say(String line) {
        say(log, line);
    }

    private static void say(Logger logger, String line) {
        logger.info(line);
        if (consoleSeen()) {
            System.out.println(line);
        }
    }

    /**
     * Whether a line printed now is seen: the console of a headless run or of a remote engine (jmeter -s, where
     * the samplers run: not JMeter's non-GUI mode, but no GUI either), as JMeter's own summariser decides.
     */
    public static boolean consoleSeen() {
        boolean headless =
                JMeter.isNonGUI() || JMeterUtils.getJMeterProperties() != null && GuiPackage.getInstance() == null;
        return headless
                && (JMeterUtils.getJMeterProperties() == null || JMeterUtils.getPropDefault("summariser.out", true));
    }

    private static void start(Run run) {
        boolean console = consoleSeen();
        reportProblems(run, console);
        run.onSummary(figures -> {
            summaryLog.info(figures);
            if (console) {
                System.out.println(figures);
            }
        });
        run.onNotice(notice -> {
            log.warn(notice);
            if (console) {
                System.out.println("stomp: " + notice);
            }
        });
        if (JMeterUtils.getJMeterProperties() == null
                || !JMeterUtils.getPropDefault(PlanVocabulary.JVM_WIDE_PREFIX + "replySummary", true)) {
            return;
        }
        long interval = JMeterUtils.getPropDefault("summariser.interval", 30);
        run.tracker().summarizeEvery(interval, line -> {
            summaryLog.info(line);
            if (console) {
                System.out.println(line);
            }
        });
    }

    private static void reportProblems(Run run, boolean console) {
        StandardJMeterEngine engine = JMeterContextService.getContext().getEngine();
        boolean keepRunning = JMeterUtils.getJMeterProperties() != null
                && "continue"
                        .equalsIgnoreCase(JMeterUtils.getPropDefault(ON_TIMING_LOG_FAILURE, "stop")
                                .trim());
        run.onProblem(problem -> {
            String said = "stomp: " + problem
                    + (keepRunning
                            ? " (the test goes on: " + ON_TIMING_LOG_FAILURE + "=continue)"
                            : "; the test stops, since its figures are gone (-J" + ON_TIMING_LOG_FAILURE
                                    + "=continue keeps it running)");
            log.error(said);
            if (console) {
                System.out.println(said);
            }
            if (!keepRunning && engine != null) {
                engine.stopTest(false);
            }
        });
    }
}
