package io.github.sockjsstomp.steps;

/** Told of each step's verdict as it is known, and of the run's answer once the steps are over. */
public interface StepListener {

    /** Step {@code figures.step()} ended and settled; {@code line} says it in words. */
    void stepEnded(StepFigures figures, Verdict verdict, String line);

    /** The steps are over: {@code line} is the run's answer. */
    void answered(String line);
}
