package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cost lines' arithmetic on rows as the poller writes them: which reading is the baseline, which the peak, the
 * CPU's window, and what is said where there is no figure.
 */
class RunCostsTest {

    /** 2026-01-01 12:00:00.000 UTC. */
    private static final long T0 = 1_767_268_800_000L;

    private final RunCosts costs = new RunCosts();

    /** One round: the generator's row (held, sent, its RSS and heap), then the server's figures. */
    private void round(int second, long held, long sent, List<Figure> server, String source) {
        long at = T0 + second * 1000L;
        costs.add(
                at,
                SourceSpec.GENERATOR,
                List.of(
                        new Figure(Figure.RUN, T0),
                        new Figure(Figure.SESSIONS_HELD, held),
                        new Figure(Figure.MESSAGES_SENT, sent),
                        new Figure(Figure.RSS_BYTES, 400e6 + held * 20_000),
                        new Figure(Figure.HEAP_USED_BYTES, 100e6 + held * 8_000)));
        if (server != null) {
            costs.add(at + 5, source, server);
        }
    }

    private static List<Figure> pid(double rss, double cpuSeconds) {
        return List.of(
                new Figure(Figure.PROCESS_CPU, 0.5),
                new Figure(Figure.CPU_SECONDS, cpuSeconds),
                new Figure(Figure.RSS_BYTES, rss),
                new Figure(Figure.THREADS, 40));
    }

    private List<String> lines() {
        return costs.lines(ZoneOffset.UTC);
    }

    @Test
    void theBaselineIsTheLastReadingBeforeTheFirstSessionAndThePeakTheFirstAtTheMostHeld() {
        round(0, 0, 0, pid(300e6, 1.00), "pid");
        round(1, 0, 0, pid(310e6, 1.10), "pid"); // the baseline: the last with none held yet
        round(2, 500, 0, pid(360e6, 1.50), "pid");
        round(3, 1000, 0, pid(420e6, 2.00), "pid"); // the peak: the first at the most held
        round(4, 1000, 0, pid(430e6, 2.10), "pid"); // messages' garbage, the JIT's code: not the sessions'
        round(5, 999, 0, pid(440e6, 2.20), "pid"); // one closed: fewer held, higher RSS
        round(6, 0, 0, pid(250e6, 2.30), "pid"); // all closed: none held, but after sessions were

        assertThat(lines())
                .containsExactly(
                        "stomp server memory per held session: 110 KB RSS (pid, 310 MB at 12:00:01.005 with 0 held"
                                + " to 420 MB at 12:00:03.005 with 1,000 held)",
                        "stomp generator memory per held session: 20.0 KB RSS (generator, 400 MB at 12:00:01.000"
                                + " with 0 held to 420 MB at 12:00:03.000 with 1,000 held); 8.00 KB heap (generator,"
                                + " 100 MB at 12:00:01.000 with 0 held to 108 MB at 12:00:03.000 with 1,000 held)");
    }

    @Test
    void sessionsHeldAtTheFirstReadingMakeItTheBaselineAndTheFigureIsPerSessionAddedSince() {
        round(0, 200, 0, pid(300e6, 1), "pid");
        round(1, 600, 0, pid(340e6, 1), "pid");

        assertThat(lines().get(0))
                .isEqualTo("stomp server memory per held session: 100 KB RSS (pid, 300 MB at 12:00:00.005 with 200"
                        + " held to 340 MB at 12:00:01.005 with 600 held)");
    }

    @Test
    void noSessionHeldAtAnyReadingIsSaidPerFigure() {
        round(0, 0, 0, pid(300e6, 1), "pid");
        round(1, 0, 0, pid(301e6, 1), "pid");

        assertThat(lines())
                .containsExactly(
                        "stomp server memory per held session: no RSS (pid: no reading while a session was held)",
                        "stomp generator memory per held session: no RSS (generator: no reading while a session was"
                                + " held); no heap (generator: no reading while a session was held)");
    }

    @Test
    void aFirstReadingAtTheMostSessionsGivesNoFigure() {
        round(0, 50, 0, pid(300e6, 1), "pid");
        round(1, 20, 0, pid(290e6, 1), "pid");

        assertThat(lines().get(0))
                .isEqualTo("stomp server memory per held session: no RSS (pid: no more sessions held at any reading"
                        + " than at its first (50))");
    }

    @Test
    void aSourceThatAnsweredLateHasItsFirstReadingForBaseline() {
        round(0, 0, 0, null, "pid");
        round(1, 10, 0, null, "pid");
        round(2, 10, 0, pid(300e6, 1), "pid");
        round(3, 30, 0, pid(302e6, 1), "pid");

        assertThat(lines().get(0))
                .startsWith("stomp server memory per held session: 100 KB RSS (pid, 300 MB at"
                        + " 12:00:02.005 with 10 held to 302 MB at 12:00:03.005 with 30 held)");
    }

    @Test
    void theActuatorsHeapAndRabbitMqsNodeMemoryAreNamedAsTheyAre() {
        costs.add(T0, SourceSpec.GENERATOR, List.of(new Figure(Figure.SESSIONS_HELD, 0)));
        costs.add(T0 + 1, SourceSpec.ACTUATOR, List.of(new Figure(Figure.HEAP_USED_BYTES, 80e6)));
        costs.add(T0 + 2, SourceSpec.RABBITMQ, List.of(new Figure(Figure.BROKER_MEMORY_BYTES, 150e6)));
        costs.add(T0 + 1000, SourceSpec.GENERATOR, List.of(new Figure(Figure.SESSIONS_HELD, 2000)));
        costs.add(T0 + 1001, SourceSpec.ACTUATOR, List.of(new Figure(Figure.HEAP_USED_BYTES, 162e6)));
        costs.add(T0 + 1002, SourceSpec.RABBITMQ, List.of(new Figure(Figure.BROKER_MEMORY_BYTES, 210e6)));

        assertThat(lines().get(0))
                .isEqualTo("stomp server memory per held session: 41.0 KB heap (actuator, 80.0 MB at 12:00:00.001"
                        + " with 0 held to 162 MB at 12:00:01.001 with 2,000 held); 30.0 KB node memory (rabbitmq,"
                        + " 150 MB at 12:00:00.002 with 0 held to 210 MB at 12:00:01.002 with 2,000 held)");
        assertThat(lines()).as("no message sent: no CPU line").hasSize(2);
    }

    @Test
    void cpuPerMessageIsOverTheReadingsFromTheLastBeforeTheFirstSendToTheFirstAtTheMostSent() {
        round(0, 10, 0, pid(300e6, 1.00), "pid");
        round(1, 10, 0, pid(300e6, 1.20), "pid"); // the start: the last before any was sent
        round(2, 10, 5_000, pid(300e6, 1.60), "pid");
        round(3, 10, 10_000, pid(300e6, 2.00), "pid"); // the end: the first at the most sent
        round(4, 10, 10_000, pid(300e6, 2.05), "pid");

        assertThat(lines().get(2))
                .isEqualTo("stomp server CPU per message: 80.0 us (pid, 0.80 s of CPU from 12:00:01.005 to"
                        + " 12:00:03.005, 10,000 messages sent)");
    }

    @Test
    void sourcesWithoutCpuTimeSayWhyOnTheCpuLine() {
        costs.add(T0, SourceSpec.GENERATOR, List.of(new Figure(Figure.MESSAGES_SENT, 0)));
        costs.add(T0 + 1, SourceSpec.RABBITMQ, List.of(new Figure(Figure.CONNECTIONS, 3)));
        costs.add(T0 + 2, SourceSpec.ACTUATOR, List.of(new Figure(Figure.PROCESS_CPU, 0.2)));
        costs.add(T0 + 3, SourceSpec.PID, List.of(new Figure(Figure.CPU_SECONDS, 4)));
        costs.add(T0 + 1000, SourceSpec.GENERATOR, List.of(new Figure(Figure.MESSAGES_SENT, 100)));

        assertThat(lines().get(2))
                .isEqualTo("stomp server CPU per message: none from rabbitmq (RabbitMQ's management API has no CPU"
                        + " figure); none from actuator (it gave no CPU time; an actuator gives it from Spring Boot"
                        + " 3.3); none from pid (no message was sent between its readings)");
    }

    @Test
    void noServerSourceThatAnsweredIsSaid() {
        round(0, 0, 0, null, "pid");
        round(1, 5, 10, null, "pid");

        assertThat(lines())
                .containsExactly(
                        "stomp server memory per held session: none (no server source answered)",
                        "stomp generator memory per held session: 20.0 KB RSS (generator, 400 MB at 12:00:00.000"
                                + " with 0 held to 400 MB at 12:00:01.000 with 5 held); 8.00 KB heap (generator, 100"
                                + " MB at 12:00:00.000 with 0 held to 100 MB at 12:00:01.000 with 5 held)",
                        "stomp server CPU per message: none (no server source answered)");
    }
}
