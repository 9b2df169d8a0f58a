package io.github.sockjsstomp.steps.followers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.StepOffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A thread's share of the steps, on an offer the test fixes ({@link FixedOffer}: the same at every time, so the
 * follower's own reading of the clock changes nothing).
 */
class StepsFollowerTest {

    private Run run;

    @BeforeEach
    void join() {
        run = Run.join(0, 0, r -> {});
    }

    @AfterEach
    void leave() {
        run.leave();
    }

    /** Steps whose offer is the same at every time, with what their followers told them. */
    private static final class FixedOffer implements StepOffer {
        final String kind;
        final double offered;
        boolean ramping;
        /** When the offer next changes, after the time asked; null: never. */
        Long nextChangeAfterMillis;

        final List<Long> ticks = new CopyOnWriteArrayList<>();
        final List<Long> lags = new CopyOnWriteArrayList<>();

        FixedOffer(StepKind kind, double offered) {
            this.kind = kind.parameter;
            this.offered = offered;
        }

        @Override
        public String kind() {
            return kind;
        }

        @Override
        public double offeredAt(long epochMs) {
            return offered;
        }

        @Override
        public boolean ramping(long epochMs) {
            return ramping;
        }

        @Override
        public long nextChangeEpochMs(long epochMs) {
            return nextChangeAfterMillis == null ? Long.MAX_VALUE : epochMs + nextChangeAfterMillis;
        }

        @Override
        public void senderTick(long tickMillis) {
            ticks.add(tickMillis);
        }

        @Override
        public void sendLag(long lagNanos) {
            lags.add(lagNanos);
        }
    }

    private FixedOffer steps(StepKind kind, double offered) {
        FixedOffer offer = new FixedOffer(kind, offered);
        assertThat(run.adoptSteps(offer)).isSameAs(offer);
        return offer;
    }

    @ParameterizedTest(name = "{0} users offered over {1} threads: thread {2} has {3} of its {4} online")
    @CsvSource({
        "10, 3, 1, 4, 100",
        "10, 3, 2, 3, 100",
        "10, 3, 3, 3, 100",
        "2, 3, 3, 0, 100",
        "10, 3, 1, 2, 2",
        "0, 4, 1, 0, 100",
        // a thread numbered past its group's threads (a group that grew) takes the last thread's share
        "10, 3, 7, 3, 100",
        // an offer a hair under a whole user, as a ramp's arithmetic makes it, is that user
        "2.9999999999999, 1, 1, 3, 100",
        "2.99, 1, 1, 2, 100",
    })
    void aThreadHasItsShareOfTheUsersTheStepOffersAsUserShareSplitsThem(
            double offered, int threads, int thread, int online, int count) {
        steps(StepKind.USERS, offered);
        StepsFollower follower = new StepsFollower(run, threads, 0);

        assertThat(follower.usersNow(count, thread)).isEqualTo(online);
    }

    @Test
    void theSharesOfEveryThreadAddUpToTheStepsUsers() {
        steps(StepKind.USERS, 11);
        StepsFollower follower = new StepsFollower(run, 4, 0);

        int[] shares = {
            follower.usersNow(100, 1), follower.usersNow(100, 2), follower.usersNow(100, 3), follower.usersNow(100, 4)
        };
        assertThat(shares).containsExactly(3, 3, 3, 2);
    }

    @Test
    void withoutStepsOrWithStepsOfAnotherKindEveryUserIsOnline() {
        StepsFollower follower = new StepsFollower(run, 4, 0);
        assertThat(follower.usersNow(25, 2)).isEqualTo(25);
        assertThat(follower.steps(StepKind.USERS)).isFalse();

        steps(StepKind.RATE, 1);
        assertThat(follower.usersNow(25, 2))
                .as("rate steps move the senders, not the users")
                .isEqualTo(25);
        assertThat(follower.usersNow(25, 2, StepKind.LOOPING)).isEqualTo(25);
        assertThat(follower.steps(StepKind.RATE)).isTrue();
    }

    @Test
    void loopingStepsAreSharedAsUsersStepsAre() {
        steps(StepKind.LOOPING, 5);
        StepsFollower follower = new StepsFollower(run, 2, 0);

        assertThat(follower.usersNow(10, 1, StepKind.LOOPING)).isEqualTo(3);
        assertThat(follower.usersNow(10, 2, StepKind.LOOPING)).isEqualTo(2);
        assertThat(follower.usersNow(10, 1)).as("not users steps").isEqualTo(10);
    }

    @ParameterizedTest(name = "{0}/s over {1} threads: {2}/s each")
    @CsvSource({"1000, 4, 250", "100, 3, 33.333333333", "50, 1, 50", "50, 0, 50"})
    void aSendersRateIsItsThreadsShareOfTheStepsOffer(double offered, int threads, double perSecond) {
        steps(StepKind.RATE, offered);
        StepsFollower follower = new StepsFollower(run, threads, 10);
        assertThat(follower.steps(StepKind.RATE)).isTrue();

        assertThat(follower.perSecondNow()).isCloseTo(perSecond, within(1e-6));
    }

    /** The steps sampler may set up after the follower's thread: the follower looks until it finds them. */
    @Test
    void stepsSetUpAfterTheFollowerAreFoundAndToldTheSendersTickOnce() {
        StepsFollower follower = new StepsFollower(run, 2, 25);
        assertThat(follower.steps(StepKind.RATE)).isFalse();
        follower.sendLag(1_000); // nowhere to go yet

        FixedOffer offer = steps(StepKind.RATE, 10);
        assertThat(follower.steps(StepKind.RATE)).isTrue();
        assertThat(follower.steps(StepKind.RATE)).isTrue();
        follower.sendLag(7_000);
        follower.sendLag(-3_000);

        assertThat(offer.ticks).containsExactly(25L);
        assertThat(offer.lags).containsExactly(7_000L, -3_000L);
    }

    @ParameterizedTest(name = "ramping {0}, next change after {1} ms: wait {2} ms")
    @CsvSource({
        "true, 250, 100",
        "true, , 100",
        "false, 250, 250",
        "false, 5000, 1000",
        "false, , 1000",
        "false, -40, 1",
        "false, 0, 1",
    })
    void theWaitIsToTheNextBoundaryAtMostASecondAndATickOfARamp(
            boolean ramping, Long nextChangeAfterMillis, long waitMillis) {
        FixedOffer offer = steps(StepKind.RATE, 10);
        offer.ramping = ramping;
        offer.nextChangeAfterMillis = nextChangeAfterMillis;
        StepsFollower follower = new StepsFollower(run, 1, 10);
        assertThat(follower.active()).isTrue();

        assertThat(follower.nanosToNextChange()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(waitMillis));
    }

    @Test
    void withoutStepsTheWaitIsASecond() {
        StepsFollower follower = new StepsFollower(run, 1, 10);
        assertThat(follower.nanosToNextChange()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
    }
}
