package io.github.sockjsstomp.steps.followers;

import io.github.sockjsstomp.samples.RunReports;
import io.github.sockjsstomp.steps.StepFigures;
import io.github.sockjsstomp.steps.StepListener;
import io.github.sockjsstomp.steps.Verdict;
import java.util.Queue;
import org.apache.jmeter.samplers.SampleResult;

/**
 * Each step's verdict as a JMeter sample for the steps sampler to return (its time: the step's hold), and said on
 * the console with the run's answer.
 */
public final class StepSamples implements StepListener {

    private final String label;
    private final Queue<SampleResult> verdicts;

    public StepSamples(String label, Queue<SampleResult> verdicts) {
        this.label = label;
        this.verdicts = verdicts;
    }

    @Override
    public void begun(String line) {
        RunReports.say("stomp steps begin: " + line);
    }

    @Override
    public void stepEnded(StepFigures figures, Verdict verdict, String line) {
        RunReports.say(line);
        SampleResult result = new SampleResult(
                figures.holdStartEpochMs(), Math.max(0, figures.endEpochMs() - figures.holdStartEpochMs()));
        result.setSampleLabel(label + " " + figures.step());
        result.setSuccessful(!verdict.broke());
        result.setResponseCode(verdict.broke() ? verdict.verdict() + "-" + verdict.limit() : verdict.verdict());
        result.setResponseMessage(line);
        result.setSampleCount(1);
        verdicts.add(result);
    }

    @Override
    public void answered(String line) {
        RunReports.say(line);
    }
}
