package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OnlineGateTest {

    private static final long T0 = 1_800_000_000_000L;

    private final OnlineGate gate = new OnlineGate(StepsStart.parse("online,+10", T0), 15_000);

    @Test
    void waitsForEveryUserThenBegins() {
        assertThat(gate.check(T0 + 10_000, 4_000, 8_000)).isNull();
        assertThat(gate.check(T0 + 20_000, 7_698, 8_000)).isNull();
        assertThat(gate.check(T0 + 21_400, 8_000, 8_000)).isEqualTo("8,000 of 8,000 users online at +21.4 s");
    }

    @Test
    void neverBeginsBeforeItsFloor() {
        assertThat(gate.check(T0 + 3_000, 8_000, 8_000)).isNull();
        assertThat(gate.check(T0 + 10_000, 8_000, 8_000)).isEqualTo("8,000 of 8,000 users online at +10.0 s");
    }

    @Test
    void waitsForTheUsersOfAGroupNotYetTold() {
        // no session sampler has set up yet: nothing expected is not "everyone online"
        assertThat(gate.check(T0 + 11_000, 0, 0)).isNull();
    }

    @Test
    void aServerThatRefusesUsersDoesNotHoldTheStepsForever() {
        assertThat(gate.check(T0 + 12_000, 7_000, 8_000)).isNull();
        assertThat(gate.check(T0 + 20_000, 7_500, 8_000)).isNull();
        // no more came online since +20 s
        assertThat(gate.check(T0 + 34_900, 7_500, 8_000)).isNull();
        assertThat(gate.check(T0 + 35_000, 7_500, 8_000))
                .startsWith("7,500 of 8,000 users online at +35.0 s (no more came online in 15 s");
    }

    @Test
    void theStallIsCountedFromTheFloorNotFromTheTestsStart() {
        assertThat(gate.check(T0, 0, 8_000)).isNull();
        assertThat(gate.check(T0 + 24_900, 0, 8_000)).isNull();
        assertThat(gate.check(T0 + 25_000, 0, 8_000)).startsWith("0 of 8,000 users online at +25.0 s (no more");
    }
}
