package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepPlanTest {

    /** Consume steps are ms per message, from 0: a consumer that takes no time is the producers' load alone. */
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(
            delimiter = ';',
            value = {
                "RATE; 1000,2000,4000; 1000.0,2000.0,4000.0",
                "RATE; 1000..8000*2; 1000.0,2000.0,4000.0,8000.0",
                "RATE; 1000..5000+1000; 1000.0,2000.0,3000.0,4000.0,5000.0",
                "RATE; 100..1000*3; 100.0,300.0,900.0",
                "RATE;  12.5, 25 ; 12.5,25.0",
                "CONSUME; 0..40+10; 0.0,10.0,20.0,30.0,40.0",
                "CONSUME; 0,2.5,5; 0.0,2.5,5.0",
                "CONSUME; 5..20*2; 5.0,10.0,20.0",
            })
    void readsAListAFactorAndAnIncrement(StepKind kind, String text, String expected) {
        List<Double> steps = StepPlan.parse(text, kind);
        assertThat(steps.stream().map(String::valueOf).toList()).containsExactly(expected.split(","));
        assertThat(new StepPlan(kind, steps, 1000, 2000).toString())
                .startsWith(steps.size() + " steps of " + kind.unit + " (");
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource(
            delimiter = ';',
            value = {
                "RATE; 1000,abc; not a number: 'abc'",
                "RATE; 2000,1000; steps must grow: 1,000 after 2,000",
                "RATE; 0,10; a step must be above 0: 0",
                "RATE; 1000..8000*1; a factor must be above 1: 1",
                "RATE; 8000..1000*2; the last step 1,000 is below the first 8,000",
                "RATE; 1000..5000+0; an increment must be above 0: 0",
                "RATE; 1..100000+1; more than 1000 steps",
                "CONSUME; 0..40*2; a factor cannot grow from 0: give an increment (0..40+10) or a list",
                "CONSUME; -10,0; a step must be 0 or above: -10",
                "CONSUME; 0,0; steps must grow: 0 after 0",
            })
    void saysWhatIsWrong(StepKind kind, String text, String problem) {
        assertThatThrownBy(() -> StepPlan.parse(text, kind))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(problem);
    }

    @Test
    void usersAreWhole() {
        assertThatThrownBy(() -> StepPlan.parse("10,20.5", StepKind.USERS))
                .hasMessageContaining("users are whole: 20.5");
    }

    @Test
    void eachStepRampsThenHoldsOnOffsetsFromTheStart() {
        StepPlan plan = new StepPlan(StepKind.RATE, List.of(100.0, 200.0, 400.0), 1000, 3000);
        assertThat(plan.rampStartOffset(2)).isEqualTo(4000);
        assertThat(plan.holdStartOffset(2)).isEqualTo(5000);
        assertThat(plan.endOffset(3)).isEqualTo(12_000);
        assertThat(plan.totalMillis()).isEqualTo(12_000);
        assertThat(plan.offeredAt(-1)).isZero();
        assertThat(plan.offeredAt(0)).isZero(); // step 1 ramps from 0
        assertThat(plan.offeredAt(500)).isEqualTo(50);
        assertThat(plan.offeredAt(1000)).isEqualTo(100);
        assertThat(plan.offeredAt(4500)).isEqualTo(150); // halfway from 100 to 200
        assertThat(plan.offeredAt(11_999)).isEqualTo(400);
        assertThat(plan.offeredAt(12_000)).isZero(); // after the last step
        assertThat(plan.stepAt(12_000)).isEqualTo(4);
        assertThat(plan.nextBoundary(4500)).isEqualTo(5000);
        assertThat(plan.nextBoundary(5000)).isEqualTo(8000);
        assertThat(plan.nextBoundary(12_000)).isEqualTo(Long.MAX_VALUE);
    }
}
