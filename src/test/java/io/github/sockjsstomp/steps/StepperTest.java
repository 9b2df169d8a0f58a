package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.sockjsstomp.timing.CapacityBook;
import io.github.sockjsstomp.timing.ExpectedUsers;
import io.github.sockjsstomp.timing.StepWindows;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The steps' clock on numbers: the offer at an offset from a start the test gives, and the holds a start in the
 * past has already gone through (the steps' own thread runs every boundary that is due at once, in order). The
 * Stepper reads the epoch clock itself, so a start is placed relative to it; every assertion is on offsets from
 * that start, counts and order, never on how long anything took. Its CPU figures are the JVM's own and are not
 * asserted; the generator check here never looks at them (shares above 100%).
 */
class StepperTest {

    private static final long RAMP_MILLIS = 1_000;
    private static final long HOLD_MILLIS = 2_000;
    /** A generator check that only the send lag can break: no CPU share reaches 200%. */
    private static final GeneratorCheck LAG_ONLY = new GeneratorCheck(500, 2.0, 2.0);
    /** A level no step holds: any count of missed heart-beats, 0 included, is above it. */
    private static final ServiceLevel UNHOLDABLE = new ServiceLevel(null, null, null, null, null, null, null, -1.0);

    @TempDir
    Path dir;

    private final StepWindows windows = new StepWindows();
    private final CapacityBook capacity = new CapacityBook();
    private final Told told = new Told();
    private final AtomicInteger stops = new AtomicInteger();
    /** Counted down by the test's stop, which the steps' thread runs just after it tells the answer. */
    private final CountDownLatch stopped = new CountDownLatch(1);

    private Stepper stepper;

    @AfterEach
    void finish() {
        if (stepper != null) {
            stepper.finish();
        }
    }

    /** A listener that keeps what it was told, in order. */
    private static final class Told implements StepListener {
        final List<String> begun = new CopyOnWriteArrayList<>();
        final BlockingQueue<StepFigures> ended = new LinkedBlockingQueue<>();
        final List<Verdict> verdicts = new CopyOnWriteArrayList<>();
        final BlockingQueue<String> answered = new LinkedBlockingQueue<>();

        @Override
        public void begun(String line) {
            begun.add(line);
        }

        @Override
        public void stepEnded(StepFigures figures, Verdict verdict, String line) {
            verdicts.add(verdict);
            ended.add(figures);
        }

        @Override
        public void answered(String line) {
            answered.add(line);
        }

        StepFigures nextEnded() throws InterruptedException {
            StepFigures figures = ended.poll(30, TimeUnit.SECONDS);
            assertThat(figures).as("a step ended").isNotNull();
            return figures;
        }

        String answer() throws InterruptedException {
            String line = answered.poll(30, TimeUnit.SECONDS);
            assertThat(line).as("the answer").isNotNull();
            return line;
        }
    }

    private Stepper started(StepPlan plan, long startEpochMs, ServiceLevel level, boolean stopOnBreak)
            throws Exception {
        StepsStart start = new StepsStart(startEpochMs, startEpochMs, false);
        Stepper.Settings settings =
                new Stepper.Settings(plan, start, level, LAG_ONLY, stopOnBreak, 0, "stepper-test-io-");
        stepper = new Stepper(
                settings,
                windows,
                capacity,
                new ExpectedUsers(),
                () -> GeneratorQueues.NONE,
                new StepsLog(dir.resolve("steps.csv"), "1", "local"),
                told,
                () -> {
                    stops.incrementAndGet();
                    stopped.countDown();
                });
        stepper.start();
        return stepper;
    }

    private static StepPlan rates(double... offered) {
        return new StepPlan(StepKind.RATE, Arrays.stream(offered).boxed().toList(), RAMP_MILLIS, HOLD_MILLIS);
    }

    /** A start an hour away: no boundary comes during the test, the offer is read on numbers alone. */
    private static long anHourAhead() {
        return System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1);
    }

    @ParameterizedTest(name = "{0} ms after the start: {1}/s, ramping {2}, next change at {3} ms")
    @CsvSource({
        "-1, 0, false, 0",
        "0, 0, true, 1000",
        "500, 50, true, 1000",
        "999, 99.9, true, 1000",
        "1000, 100, false, 3000",
        "2999, 100, false, 3000",
        "3000, 100, true, 4000",
        "3500, 150, true, 4000",
        "4000, 200, false, 6000",
        "6000, 200, true, 7000",
        "6250, 250, true, 7000",
        "7000, 400, false, 9000",
        "8999, 400, false, 9000",
    })
    void theOfferRampsFromTheStepBeforeAndHoldsOnThePlansOffsets(
            long offsetMillis, double offered, boolean ramping, long nextChangeOffsetMillis) throws Exception {
        long start = anHourAhead();
        Stepper steps = started(rates(100, 200, 400), start, ServiceLevel.NONE, false);

        assertThat(steps.offeredAt(start + offsetMillis)).isCloseTo(offered, within(1e-9));
        assertThat(steps.ramping(start + offsetMillis)).isEqualTo(ramping);
        assertThat(steps.nextChangeEpochMs(start + offsetMillis)).isEqualTo(start + nextChangeOffsetMillis);
    }

    @Test
    void afterTheLastStepNothingIsOfferedAndTheOfferNeverChangesAgain() throws Exception {
        long start = anHourAhead();
        Stepper steps = started(rates(100, 200, 400), start, ServiceLevel.NONE, false);

        assertThat(steps.offeredAt(start + 9_000)).isZero();
        assertThat(steps.ramping(start + 9_000)).isFalse();
        assertThat(steps.nextChangeEpochMs(start + 9_000)).isEqualTo(Long.MAX_VALUE);
        assertThat(steps.kind()).isEqualTo("rate");
    }

    /**
     * Steps whose boundaries all passed: each hold begins at its ramp's end and ends a hold later, on the plan's
     * offsets from the start whatever time the steps' thread ran them; one verdict per step, in order, then the
     * answer and the test's stop, once.
     */
    @Test
    void eachHoldBeginsAfterItsRampAndEndsAHoldLaterWithTheUsersHeldAtItsEnd() throws Exception {
        StepPlan plan = new StepPlan(StepKind.USERS, List.of(10.0, 20.0, 40.0), RAMP_MILLIS, HOLD_MILLIS);
        for (int user = 0; user < 7; user++) {
            capacity.connected(user, user + 1);
        }
        long start = System.currentTimeMillis() - plan.totalMillis() - 60_000;
        Stepper steps = started(plan, start, ServiceLevel.NONE, false);

        String answer = told.answer();
        assertThat(told.ended).hasSize(3);
        List<StepFigures> ended = List.copyOf(told.ended);
        for (int k = 1; k <= 3; k++) {
            StepFigures figures = ended.get(k - 1);
            assertThat(figures.step()).isEqualTo(k);
            assertThat(figures.kind()).isEqualTo(StepKind.USERS);
            assertThat(figures.offered()).isEqualTo(plan.offered(k));
            assertThat(figures.rampStartEpochMs()).isEqualTo(start + (k - 1) * (RAMP_MILLIS + HOLD_MILLIS));
            assertThat(figures.holdStartEpochMs()).isEqualTo(figures.rampStartEpochMs() + RAMP_MILLIS);
            assertThat(figures.endEpochMs()).isEqualTo(figures.holdStartEpochMs() + HOLD_MILLIS);
            assertThat(figures.users()).isEqualTo(7);
            assertThat(figures.achieved())
                    .as("a users step achieves the users held")
                    .isEqualTo(7);
            assertThat(figures.sent()).as("no message was sent in it").isNull();
            assertThat(figures.sendLagP99Millis()).as("no sender woke in it").isNull();
        }
        assertThat(told.verdicts).extracting(Verdict::verdict).containsOnly(Verdict.UNCHECKED);
        assertThat(answer).startsWith("stomp capacity: not checked").contains("3 steps up to 40");
        assertStoppedOnce(steps);
        assertThat(told.begun).hasSize(1);
        assertThat(steps.offeredAt(start + plan.totalMillis())).isZero();
        List<String> log = Files.readAllLines(dir.resolve("steps.csv"), StandardCharsets.UTF_8);
        assertThat(log).hasSize(4);
        assertThat(log.subList(1, 4)).extracting(row -> row.split(",")[2]).containsExactly("1", "2", "3");
    }

    /** Looping steps let loop as many of the users online as the step offers, never more than are online. */
    @Test
    void aLoopingStepAchievesTheUsersItLetLoopThatWereOnline() throws Exception {
        StepPlan plan = new StepPlan(StepKind.LOOPING, List.of(2.0, 5.0, 9.0), RAMP_MILLIS, HOLD_MILLIS);
        for (int user = 0; user < 5; user++) {
            capacity.connected(user, user + 1);
        }
        started(plan, System.currentTimeMillis() - plan.totalMillis() - 60_000, ServiceLevel.NONE, false);

        told.answer();
        assertThat(told.ended).extracting(StepFigures::achieved).containsExactly(2.0, 5.0, 5.0);
    }

    /**
     * Step 1 broke with stopOnBreak: the offer drops to 0 at the end of step 2 (which confirms it), step 3 never
     * holds, and the answer comes after step 2's verdict. Step 2 ends a second after the test starts, on the plan's
     * offset; step 3's ramp is long, so it cannot begin meanwhile.
     */
    @Test
    void aBrokenStepWithStopOnBreakEndsTheOfferAtTheEndOfTheNextStep() throws Exception {
        long rampMillis = 60_000;
        StepPlan plan = new StepPlan(StepKind.RATE, List.of(100.0, 200.0, 400.0), rampMillis, HOLD_MILLIS);
        long start = System.currentTimeMillis() + 1_000 - plan.endOffset(2);
        Stepper steps = started(plan, start, UNHOLDABLE, true);

        assertThat(told.nextEnded().step()).isEqualTo(1);
        StepFigures second = told.nextEnded();
        assertThat(second.step()).isEqualTo(2);
        assertThat(second.endEpochMs()).isEqualTo(start + plan.endOffset(2));
        told.answer();

        assertThat(told.verdicts).extracting(Verdict::broke).containsExactly(true, true);
        assertThat(told.ended).isEmpty();
        assertStoppedOnce(steps);
        assertThat(steps.offeredAt(start + plan.rampStartOffset(3) + rampMillis / 2))
                .as("step 3's ramp, after the stop")
                .isZero();
    }

    /** The same broken steps without stopOnBreak: the plan's offer goes on into step 3. */
    @Test
    void aBrokenStepWithoutStopOnBreakLeavesTheOfferToThePlan() throws Exception {
        long rampMillis = 60_000;
        StepPlan plan = new StepPlan(StepKind.RATE, List.of(100.0, 200.0, 400.0), rampMillis, HOLD_MILLIS);
        long start = System.currentTimeMillis() + 1_000 - plan.endOffset(2);
        Stepper steps = started(plan, start, UNHOLDABLE, false);

        assertThat(told.nextEnded().step()).isEqualTo(1);
        assertThat(told.nextEnded().step()).isEqualTo(2);

        assertThat(told.verdicts).extracting(Verdict::broke).containsExactly(true, true);
        assertThat(told.answered).isEmpty();
        assertThat(stops).hasValue(0);
        assertThat(steps.offeredAt(start + plan.rampStartOffset(3) + rampMillis / 2))
                .isCloseTo(300, within(1e-9));
    }

    /**
     * A hold under way (it ends in an hour): the send lag told during it is its figure, and the longest sender tick
     * widens the lag the generator check allows to two ticks.
     */
    @ParameterizedTest(name = "lag {0} ms, tick {1} ms: {2}")
    @CsvSource({"800, 0, broke", "800, 500, held", "300, 0, held"})
    void theSendLagDuringAHoldIsItsFigureAndTwoTicksOfItAreTheSchedule(long lagMillis, long tickMillis, String verdict)
            throws Exception {
        StepPlan plan = new StepPlan(StepKind.RATE, List.of(100.0), 0, TimeUnit.HOURS.toMillis(1));
        long start = System.currentTimeMillis() - 1_000;
        ServiceLevel anyLatency = new ServiceLevel(null, 10_000.0, null, null, null, null, null, null);
        Stepper steps = started(plan, start, anyLatency, false);
        awaitBegun();

        steps.senderTick(tickMillis);
        for (int wakeUp = 0; wakeUp < 100; wakeUp++) {
            steps.sendLag(TimeUnit.MILLISECONDS.toNanos(lagMillis));
        }
        steps.sendLag(-TimeUnit.MILLISECONDS.toNanos(5_000)); // early: counted as no lag
        steps.finish();
        stepper = null;

        StepFigures figures = told.nextEnded();
        assertThat(figures.holdStartEpochMs()).isEqualTo(start);
        assertThat(figures.endEpochMs()).isBetween(start, start + plan.endOffset(1));
        assertThat(figures.sendLagP99Millis()).isCloseTo(lagMillis, within(lagMillis * 0.01));
        assertThat(told.verdicts).extracting(Verdict::verdict).containsExactly(verdict);
        assertThat(told.answer()).isNotEmpty();
    }

    /**
     * The test was stopped, once: the stop comes on the steps' thread after the answer is told, so it is awaited;
     * a second stop would come before the run's finish returns (finish waits for the steps' thread's settle).
     */
    private void assertStoppedOnce(Stepper steps) throws InterruptedException {
        assertThat(stopped.await(30, TimeUnit.SECONDS))
                .as("the test was stopped")
                .isTrue();
        steps.finish();
        assertThat(stops).hasValue(1);
    }

    /** The steps' thread tells the beginning once step 1's hold has begun (its task runs after the hold's). */
    private void awaitBegun() throws InterruptedException {
        for (int look = 0; look < 3_000 && told.begun.isEmpty(); look++) {
            Thread.sleep(10);
        }
        assertThat(told.begun).as("the steps began").hasSize(1);
    }
}
