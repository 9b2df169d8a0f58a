package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepPlanTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = ';',
            value = {
                "1000,2000,4000; 1000.0,2000.0,4000.0",
                "1000..8000*2; 1000.0,2000.0,4000.0,8000.0",
                "1000..5000+1000; 1000.0,2000.0,3000.0,4000.0,5000.0",
                "100..1000*3; 100.0,300.0,900.0",
                " 12.5, 25 ; 12.5,25.0",
            })
    void readsAListAFactorAndAnIncrement(String text, String expected) {
        List<Double> steps = StepPlan.parse(text, StepKind.RATE);
        assertThat(steps.stream().map(String::valueOf).toList()).containsExactly(expected.split(","));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = ';',
            value = {
                "1000,abc; not a number: 'abc'",
                "2000,1000; steps must grow: 1,000 after 2,000",
                "0,10; a step must be above 0: 0",
                "1000..8000*1; a factor must be above 1: 1",
                "8000..1000*2; the last step 1,000 is below the first 8,000",
                "1000..5000+0; an increment must be above 0: 0",
                "1..100000+1; more than 1000 steps",
            })
    void saysWhatIsWrong(String text, String problem) {
        assertThatThrownBy(() -> StepPlan.parse(text, StepKind.RATE))
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
