package io.github.sockjsstomp.steps;

/** Told of each step's verdict as it is known, and of the run's answer once the steps are over. */
public interface StepListener {

    /** Step 1's ramp begins; {@code line} says with how many users online ({@code 8,000 of 8,000 users ...}). */
    void begun(String line);

    /** Step {@code figures.step()} ended and settled; {@code line} says it in words. */
    void stepEnded(StepFigures figures, Verdict verdict, String line);

    /** The steps are over: {@code line} is the run's answer. */
    void answered(String line);
}
