package io.github.sockjsstomp.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerdictTest {

    static StepFigures rate(
            int step, double offered, long sent, long lost, Long p99Micros, Double lagMillis, double cpu) {
        return rate(step, offered, sent, lost, p99Micros, lagMillis, cpu, null);
    }

    static StepFigures rate(
            int step,
            double offered,
            long sent,
            long lost,
            Long p99Micros,
            Double lagMillis,
            double cpu,
            Double machineCpu) {
        return new StepFigures(
                step,
                StepKind.RATE,
                offered,
                0,
                1000,
                2000, // a hold of 1 s: sent = offered is the generator keeping its pace
                10,
                sent,
                sent - lost,
                lost,
                0L,
                (sent - lost) / 3.0,
                p99Micros == null ? null : p99Micros / 2,
                p99Micros,
                p99Micros,
                lagMillis,
                cpu,
                machineCpu,
                0,
                0,
                null,
                0);
    }

    static StepFigures users(int step, double offered, long connects, long failed, Long p99Millis) {
        return users(step, offered, connects, failed, p99Millis, 0);
    }

    static StepFigures users(
            int step, double offered, long connects, long failed, Long p99Millis, long heartbeatMisses) {
        return new StepFigures(
                step,
                StepKind.USERS,
                offered,
                0,
                1000,
                4000,
                (int) (connects - failed),
                null,
                null,
                null,
                null,
                connects - failed,
                null,
                null,
                null,
                null,
                0.2,
                null,
                connects,
                failed,
                p99Millis,
                heartbeatMisses);
    }

    private static final ServiceLevel P99_500_NO_LOSS =
            new ServiceLevel(null, 500.0, null, 0.0, null, null, null, null);

    @ParameterizedTest(name = "p99 {0} us, {1} lost, lag {2} ms, cpu {3}: {4} {5}")
    @CsvSource({
        "38000, 0, 2, 0.3, held, '', ''",
        "1240000, 0, 2, 0.3, broke, server, p99 1240 ms > 500 ms",
        "38000, 21, 2, 0.3, broke, server, lost 2.1% > 0%",
        "1240000, 21, 2, 0.3, broke, server, p99 1240 ms > 500 ms; lost 2.1% > 0%",
        "1240000, 0, 850, 0.3, broke, generator, p99 1240 ms > 500 ms; generator: send lag p99 850 ms",
        "1240000, 0, 2, 0.97, broke, generator, p99 1240 ms > 500 ms; generator: CPU 97% of 2 cores",
        "38000, 0, 850, 0.3, broke, generator, generator: send lag p99 850 ms",
    })
    void aBreakIsTheServersUnlessTheGeneratorLostItsPaceWhichBreaksAStepOnItsOwn(
            long p99, long lost, double lag, double cpu, String verdict, String limit, String reason) {
        Verdict v = Verdict.of(rate(1, 1000, 1000, lost, p99, lag, cpu), P99_500_NO_LOSS, GeneratorCheck.DEFAULT, 2);
        assertThat(v).isEqualTo(new Verdict(verdict, limit, reason));
    }

    @Test
    void lagWithinTwoTicksOrAPauseIsNotTheGenerators() {
        StepFigures lagging = rate(1, 50, 100, 0, 1000L, 600.0, 0.1);
        assertThat(GeneratorCheck.DEFAULT.limits(lagging, 2)).containsExactly("send lag p99 600 ms");
        assertThat(GeneratorCheck.DEFAULT.forTick(400).limits(lagging, 2)).isEmpty();
        assertThat(GeneratorCheck.DEFAULT.limits(rate(1, 50, 100, 0, 1000L, 108.0, 0.1), 2))
                .as("a pause of the JVM, caught up")
                .isEmpty();
        assertThat(GeneratorCheck.DEFAULT.forTick(10)).isEqualTo(GeneratorCheck.DEFAULT);
    }

    @Test
    void aRateStepThatSentLessThanItOfferedIsTheGenerators() {
        // a hold of 1 s offering 1,000 messages: 0 sent (a thread still connecting its users lags nothing)
        Verdict none = Verdict.of(rate(1, 1000, 0, 0, null, null, 0.1), P99_500_NO_LOSS, GeneratorCheck.DEFAULT, 2);
        assertThat(none)
                .isEqualTo(new Verdict(
                        Verdict.BROKE, Verdict.GENERATOR, "generator: sent 0 of the 1000 messages the hold offered"));
        assertThat(GeneratorCheck.DEFAULT.limits(rate(1, 1000, 500, 0, 1000L, 2.0, 0.1), 2))
                .as("half sent: not judged here (the lag check judges a sender that falls behind)")
                .isEmpty();
        assertThat(GeneratorCheck.DEFAULT.limits(rate(1, 1000, 499, 0, 1000L, 2.0, 0.1), 2))
                .containsExactly("sent 499 of the 1000 messages the hold offered");
    }

    @Test
    void withoutAServiceLevelEveryStepIsUnchecked() {
        Verdict v = Verdict.of(
                rate(1, 1000, 1000, 500, 9_000_000L, 2.0, 0.1), ServiceLevel.NONE, GeneratorCheck.DEFAULT, 2);
        assertThat(v.verdict()).isEqualTo(Verdict.UNCHECKED);
        assertThat(v.broke()).isFalse();
    }

    @Test
    void connectsAreCheckedOnUsersSteps() {
        ServiceLevel level = new ServiceLevel(null, null, null, null, null, 1.0, 200.0, null);
        assertThat(Verdict.of(users(1, 100, 100, 0, 20L), level, GeneratorCheck.DEFAULT, 2)
                        .verdict())
                .isEqualTo(Verdict.HELD);
        Verdict broke = Verdict.of(users(2, 200, 100, 3, 250L), level, GeneratorCheck.DEFAULT, 2);
        assertThat(broke)
                .isEqualTo(new Verdict("broke", "server", "connects failed 3% > 1%; connect p99 250 ms > 200 ms"));
    }

    @Test
    void theAnswerSaysTheLastHeldStepTheKneeAndWhoseLimit() {
        List<StepFigures> steps = List.of(
                rate(1, 2000, 6000, 0, 30_000L, 1.0, 0.3),
                rate(2, 4000, 12_000, 0, 38_000L, 1.0, 0.4),
                rate(3, 8000, 24_000, 504, 1_240_000L, 1.0, 0.5));
        List<Verdict> verdicts = steps.stream()
                .map(s -> Verdict.of(s, P99_500_NO_LOSS, GeneratorCheck.DEFAULT, 2))
                .toList();
        assertThat(CapacityAnswer.line(steps, verdicts))
                .isEqualTo("stomp capacity: held 4,000 msg/s (p99 38 ms, 0 lost, achieved 4,000 msg/s); broke at "
                        + "8,000 msg/s: p99 1,240 ms, 2.1% lost (the server's limit: the generator kept its pace)");
    }

    /** A consume step: the consumers' ms per message; the producers' rate is the same in each (300 msg/s here). */
    static StepFigures consume(int step, double millis, long lost, long p99Micros) {
        StepFigures figures = rate(step, 300, 300, lost, p99Micros, 1.0, 0.3);
        return new StepFigures(
                figures.step(),
                StepKind.CONSUME,
                millis,
                figures.rampStartEpochMs(),
                figures.holdStartEpochMs(),
                figures.endEpochMs(),
                figures.users(),
                figures.sent(),
                figures.answered(),
                figures.lost(),
                figures.failed(),
                300.0 - lost,
                figures.p50Micros(),
                figures.p99Micros(),
                figures.p999Micros(),
                figures.sendLagP99Millis(),
                figures.generatorCpu(),
                figures.machineCpu(),
                0,
                0,
                null,
                0);
    }

    @Test
    void consumeStepsSayTheConsumersTimePerMessageAndTheRateTheyGotThrough() {
        List<StepFigures> steps =
                List.of(consume(1, 0, 0, 4_000L), consume(2, 10, 0, 12_000L), consume(3, 20, 30, 2_400_000L));
        List<Verdict> verdicts = steps.stream()
                .map(s -> Verdict.of(s, P99_500_NO_LOSS, GeneratorCheck.DEFAULT, 2))
                .toList();
        assertThat(verdicts).extracting(Verdict::verdict).containsExactly("held", "held", "broke");
        assertThat(CapacityAnswer.stepLine(steps.get(1), verdicts.get(1), 3))
                .isEqualTo("stomp step 2 of 3: 10 ms per message held (p99 12 ms, 0 lost, achieved 300 msg/s)");
        assertThat(CapacityAnswer.line(steps, verdicts))
                .isEqualTo("stomp capacity: held 10 ms per message (p99 12 ms, 0 lost, achieved 300 msg/s); broke at "
                        + "20 ms per message: p99 2,400 ms, 10% lost (the consumers too slow for the service "
                        + "level: the generator kept its pace)");
        assertThat(CapacityAnswer.stepLine(steps.get(2), verdicts.get(2), 3))
                .startsWith("stomp step 3 of 3: 20 ms per message broke (the consumers too slow: p99 2400 ms > 500 ms");
    }

    @Test
    void aGeneratorsKneeSaysTheFigureThatShowedIt() {
        List<StepFigures> steps =
                List.of(rate(1, 2000, 6000, 0, 30_000L, 1.0, 0.3), rate(2, 4000, 12_000, 0, 900_000L, 850.0, 0.4));
        List<Verdict> verdicts = steps.stream()
                .map(s -> Verdict.of(s, P99_500_NO_LOSS, GeneratorCheck.DEFAULT, 2))
                .toList();
        assertThat(CapacityAnswer.line(steps, verdicts))
                .isEqualTo("stomp capacity: held 2,000 msg/s (p99 30 ms, 0 lost, achieved 2,000 msg/s); broke at "
                        + "4,000 msg/s: p99 900 ms, 0% lost (the generator's limit: send lag p99 850 ms; the "
                        + "server's figures say nothing here)");
    }

    @Test
    void usersAnswerSaysTheFailedConnects() {
        ServiceLevel level = new ServiceLevel(null, null, null, null, null, 1.0, null, null);
        List<StepFigures> steps = List.of(users(1, 10_000, 10_000, 0, 40L), users(2, 20_000, 10_000, 310, 900L));
        List<Verdict> verdicts = steps.stream()
                .map(s -> Verdict.of(s, level, GeneratorCheck.DEFAULT, 2))
                .toList();
        assertThat(CapacityAnswer.line(steps, verdicts))
                .isEqualTo("stomp capacity: held 10,000 users (10000 online, 0% of connects failed, connect p99 40 ms);"
                        + " broke at 20,000 users: 3.1% of connects failed, connect p99 900 ms (the server's limit: "
                        + "the generator kept its pace)");
    }

    @Test
    void sessionsLostToMissedHeartBeatsBreakAUsersStepWithTheirCount() {
        ServiceLevel level = new ServiceLevel(null, null, null, null, null, 0.0, null, 0.0);
        assertThat(Verdict.of(users(1, 100, 100, 0, 20L, 0), level, GeneratorCheck.DEFAULT, 2))
                .isEqualTo(new Verdict("held", "", ""));
        Verdict broke = Verdict.of(users(2, 200, 100, 0, 20L, 12), level, GeneratorCheck.DEFAULT, 2);
        assertThat(broke).isEqualTo(new Verdict("broke", "server", "12 sessions lost to missed heart-beats > 0"));
        assertThat(Verdict.of(users(2, 200, 100, 0, 20L, 1), level, GeneratorCheck.DEFAULT, 2)
                        .reason())
                .isEqualTo("1 session lost to missed heart-beats > 0");
        // without the limit the misses are figures, not a verdict
        ServiceLevel connectsOnly = new ServiceLevel(null, null, null, null, null, 0.0, null, null);
        assertThat(Verdict.of(users(2, 200, 100, 0, 20L, 12), connectsOnly, GeneratorCheck.DEFAULT, 2)
                        .verdict())
                .isEqualTo(Verdict.HELD);
        assertThat(level.toString()).endsWith("sessions lost to missed heart-beats <= 0");
    }

    @Test
    void theAnswerAndTheStepLineSayTheHeartBeatMisses() {
        ServiceLevel level = new ServiceLevel(null, null, null, null, null, 0.0, null, 0.0);
        List<StepFigures> steps = List.of(users(1, 10, 10, 0, 40L, 0), users(2, 20, 10, 0, 45L, 3));
        List<Verdict> verdicts = steps.stream()
                .map(s -> Verdict.of(s, level, GeneratorCheck.DEFAULT, 2))
                .toList();
        assertThat(CapacityAnswer.line(steps, verdicts))
                .isEqualTo("stomp capacity: held 10 users (10 online, 0% of connects failed, connect p99 40 ms); "
                        + "broke at 20 users: 0% of connects failed, connect p99 45 ms, 3 sessions lost to missed "
                        + "heart-beats (the server's limit: the generator kept its pace)");
        assertThat(CapacityAnswer.stepLine(steps.get(1), verdicts.get(1), 2))
                .isEqualTo("stomp step 2 of 2: 20 users broke (the server's limit: 3 sessions lost to missed "
                        + "heart-beats > 0) (10 online, 0% of connects failed, connect p99 45 ms, 3 sessions lost to "
                        + "missed heart-beats)");
    }

    /**
     * A step that broke while the whole machine was busy at or above 95% of its cores is the machine's limit, with the
     * figures; below it (or not read) the server's; the generator out of breath is said first whatever the machine.
     */
    @ParameterizedTest(name = "machine {0}, generator cpu {1}, p99 {2} us, lag {3} ms: {4}")
    @CsvSource({
        "0.98, 0.41, 900000, 1.0, broke, machine, 'p99 900 ms > 500 ms; machine: 98% of 2 cores busy, the generator 41%:"
                + " server and generator share it'",
        "0.95, 0.30, 900000, 1.0, broke, machine, 'p99 900 ms > 500 ms; machine: 95% of 2 cores busy, the generator 30%:"
                + " server and generator share it'",
        "0.94, 0.30, 900000, 1.0, broke, server, 'p99 900 ms > 500 ms'",
        ", 0.30, 900000, 1.0, broke, server, 'p99 900 ms > 500 ms'",
        "0.99, 0.30, 20000, 1.0, held, '', ''",
        "0.99, 0.30, 900000, 850.0, broke, generator, 'p99 900 ms > 500 ms; generator: send lag p99 850 ms'",
    })
    void aStepThatBrokeOnASaturatedMachineIsTheMachinesLimit(
            Double machine, double cpu, long p99Micros, double lag, String verdict, String limit, String reason) {
        StepFigures figures = rate(1, 1000, 1000, 0, p99Micros, lag, cpu, machine);
        assertThat(Verdict.of(
                        figures,
                        P99_500_NO_LOSS,
                        GeneratorCheck.DEFAULT,
                        2,
                        2,
                        GeneratorQueues.NONE,
                        GeneratorQueues.NONE))
                .isEqualTo(new Verdict(verdict, limit, reason));
    }

    @Test
    void theAnswerSaysTheMachinesLimitWithItsFigures() {
        List<StepFigures> steps = List.of(
                rate(1, 2000, 6000, 0, 30_000L, 1.0, 0.3, 0.6), rate(2, 4000, 12_000, 0, 900_000L, 1.0, 0.41, 0.98));
        List<Verdict> verdicts = steps.stream()
                .map(s -> Verdict.of(
                        s, P99_500_NO_LOSS, GeneratorCheck.DEFAULT, 1, 2, GeneratorQueues.NONE, GeneratorQueues.NONE))
                .toList();
        assertThat(CapacityAnswer.line(steps, verdicts))
                .isEqualTo("stomp capacity: held 2,000 msg/s (p99 30 ms, 0 lost, achieved 2,000 msg/s); broke at "
                        + "4,000 msg/s: p99 900 ms, 0% lost (the machine's limit: 98% of 2 cores busy, the generator "
                        + "41% of 1 core: server and generator share it)");
        assertThat(CapacityAnswer.stepLine(steps.get(1), verdicts.get(1), 2))
                .startsWith("stomp step 2 of 2: 4,000 msg/s broke (the machine's limit: p99 900 ms > 500 ms; machine: "
                        + "98% of 2 cores busy");
    }

    @Test
    void anUncheckedStepStillSaysASaturatedMachine() {
        Verdict v = Verdict.of(
                rate(1, 1000, 1000, 0, 20_000L, 1.0, 0.5, 0.97),
                ServiceLevel.NONE,
                GeneratorCheck.DEFAULT,
                2,
                2,
                GeneratorQueues.NONE,
                GeneratorQueues.NONE);
        assertThat(v)
                .isEqualTo(new Verdict(
                        "unchecked",
                        "",
                        "machine: 97% of 2 cores busy, the generator 50%: server and " + "generator share it"));
    }

    private static final ServiceLevel P99_100 = new ServiceLevel(null, 100.0, null, null, null, null, null, null);

    @ParameterizedTest
    @CsvSource({
        // backlog at the hold's start, at its end: grown past 10,000 records and a second of the hold's messages
        "0, 50000, generator, 'generator: timing log writer 50000 records behind (0 at the hold''s start)'",
        // a backlog that shrank is a writer catching up
        "60000, 50000, '', ''",
        // below 10,000 records is a writer between batches
        "0, 9000, '', ''"
    })
    void aTimingLogWriterThatFellBehindIsTheGenerators(long atStart, long atEnd, String limit, String reason) {
        StepFigures held = rate(1, 1000, 1000, 0, 20_000L, 5.0, 0.3);
        Verdict verdict = Verdict.of(
                held,
                P99_100,
                GeneratorCheck.DEFAULT,
                2,
                new GeneratorQueues(atStart, 0, 100_000),
                new GeneratorQueues(atEnd, 0, 100_000));
        assertThat(verdict.limit()).isEqualTo(limit);
        assertThat(verdict.reason()).isEqualTo(reason);
        assertThat(verdict.verdict()).isEqualTo(limit.isEmpty() ? Verdict.HELD : Verdict.BROKE);
    }

    @ParameterizedTest
    @CsvSource({
        // the busiest I/O thread's CPU over the hold (share of a core): on CPU the whole hold is the generator's
        "0.97, generator, 'generator: I/O thread stomp-io-2 busy 97% of the hold'",
        "0.95, generator, 'generator: I/O thread stomp-io-2 busy 95% of the hold'",
        "0.94, '', ''",
    })
    void anIoThreadBusyTheWholeHoldIsTheGenerators(double share, String limit, String reason) {
        StepFigures held = rate(1, 1000, 1000, 0, 20_000L, 5.0, 0.3);
        Verdict verdict = Verdict.of(
                held,
                P99_100,
                GeneratorCheck.DEFAULT,
                2,
                GeneratorQueues.NONE,
                new GeneratorQueues(0, 0, 100_000, new IoLanes.Busiest("stomp-io-2", share)));
        assertThat(verdict.limit()).isEqualTo(limit);
        assertThat(verdict.reason()).isEqualTo(reason);
    }

    @Test
    void aNearlyFullReplyFeedIsTheGenerators() {
        StepFigures held = rate(1, 1000, 1000, 0, 20_000L, 5.0, 0.3);
        Verdict verdict = Verdict.of(
                held,
                P99_100,
                GeneratorCheck.DEFAULT,
                2,
                GeneratorQueues.NONE,
                new GeneratorQueues(0, 95_000, 100_000));
        assertThat(verdict.limit()).isEqualTo(Verdict.GENERATOR);
        assertThat(verdict.reason()).isEqualTo("generator: reply feed 95000 of 100000 full");
    }
}
