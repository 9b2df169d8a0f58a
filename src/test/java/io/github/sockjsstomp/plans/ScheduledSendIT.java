package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * send.jmx's default pacing, the scheduled sender, through a real JMeter against the demo server: each thread
 * sends messagesPerSecond / threads messages per second on its users, round-robin, several messages per sample when
 * they fall due within one tick, and several ticks per sample within sampleMillis. Counts and the schedule's own
 * arithmetic only, never elapsed times.
 */
class ScheduledSendIT {

    private static final int THREADS = 2;
    private static final int USERS_PER_THREAD = 10;
    /** 400 per second: 200 per second per thread, one every 5 ms; a user every 50 ms. */
    private static final int MESSAGES_PER_SECOND = 400;

    private static final long INTERVAL_US = 5_000;
    /** Four messages fall due per 20 ms tick. */
    private static final int TICK_MILLIS = 20;

    private static final long PER_TICK = TICK_MILLIS * 1000L / INTERVAL_US;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @TempDir
    static Path dir;

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    @Test
    void eachThreadKeepsItsScheduleAndEachSampleCountsItsMessages() throws Exception {
        PlanRun run = PlanRun.runClean(
                dir.resolve("scheduled"),
                "send",
                false,
                List.of(
                        "port=" + demo.port(),
                        "transport=raw",
                        "endpoint=/stomp-ws",
                        "indexPath=none",
                        "pullPath=none",
                        "replySamples=false",
                        "heartbeatMillis=0",
                        "users=" + THREADS * USERS_PER_THREAD,
                        "threads=" + THREADS,
                        "rampUp=0",
                        "duration=8",
                        "messagesPerSecond=" + MESSAGES_PER_SECOND,
                        "tickMillis=" + TICK_MILLIS,
                        "replyTimeoutMillis=3000"));
        List<String[]> timing = run.timing();

        // Every message answered, once, fire-and-forget.
        assertThat(timing)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r[1]).as(String.join(",", r)).isEqualTo("ANSWERED"));
        assertThat(timing.stream().map(r -> r[2]).distinct()).hasSize(timing.size());
        assertThat(timing).allSatisfy(r -> assertThat(r[9]).isEqualTo("fire-and-forget"));

        // The results file: one row per tick, its SampleCount the messages it sent; together, every message.
        List<Map<String, String>> ticks =
                run.rows().stream().filter(r -> r.get("label").equals("send")).toList();
        assertThat(ticks.stream().mapToLong(PlanRun::sampleCount).sum()).isEqualTo(timing.size());
        assertThat(run.count("send")).isEqualTo(timing.size());
        assertThat(ticks).allSatisfy(r -> {
            assertThat(PlanRun.sampleCount(r)).isPositive();
            assertThat(r.get("responseMessage")).startsWith("SENT ").contains("behind schedule");
        });
        assertThat(ticks.size()).as("messages share ticks").isLessThan(timing.size());
        // sampleMillis (100 by default) gathers about five 20 ms wake-ups in a sample, each saying so.
        assertThat(ticks.stream().filter(r -> r.get("responseMessage").matches("SENT .* in \\d+ wake-ups, .*")))
                .as("samples of several wake-ups")
                .hasSizeGreaterThan(ticks.size() / 2);
        assertThat(run.threads("send")).hasSize(THREADS);

        // The lag the threads' last samples said they were behind their schedules (the worst of the threads).
        double lastLagMillis = run.threads("send").keySet().stream()
                .mapToDouble(thread -> ticks.stream()
                        .filter(r -> r.get("threadName").equals(thread))
                        .max(Comparator.comparingLong(r -> Long.parseLong(r.get("timeStamp"))))
                        .map(r -> lagMillis(r.get("responseMessage")))
                        .orElseThrow())
                .max()
                .orElseThrow();
        // A sample measures its lag when it wakes, before it sends what is due: a message sent later in the same
        // sample (after the sends before it, or a GC pause) lags more, by at most the rest of the sample. So a
        // message lags by no more than its sample's worst wake-up lag plus the sample's elapsed time.
        double worstLagMillis = ticks.stream()
                .mapToDouble(r -> worstWakeUpLagMillis(r.get("responseMessage")) + Long.parseLong(r.get("elapsed")))
                .max()
                .orElseThrow();
        Map<Integer, List<String[]>> byThread = timing.stream()
                .collect(Collectors.groupingBy(
                        r -> (userNumber(r) - 1) / USERS_PER_THREAD, TreeMap::new, Collectors.toList()));
        assertThat(byThread).hasSize(THREADS);
        for (List<String[]> sent : byThread.values()) {
            sent.sort(Comparator.comparingLong(ScheduledSendIT::sentMicros));
            // Message i of a thread is due at its start + i x interval, so t_i - i x interval is its start plus
            // message i's lag. The least of them is the start plus the least lag: never ahead of its schedule by
            // more than a tick, the thread sent at most what the schedule held up to its last send. It sent at
            // least that, less what its last tick said it was behind: a loaded machine may leave it behind (an open
            // loop measures lag, it does not absorb it), but then its samples say so.
            long start = Long.MAX_VALUE;
            for (int i = 0; i < sent.size(); i++) {
                start = Math.min(start, sentMicros(sent.get(i)) - i * INTERVAL_US);
            }
            long last = sentMicros(sent.get(sent.size() - 1));
            long scheduled = (last - start) / INTERVAL_US + 1;
            long behind = (long) Math.ceil(lastLagMillis * 1000 / INTERVAL_US);
            assertThat((long) sent.size())
                    .as(
                            "sent by the last send (start %d us, last %d us, last tick %.3f ms behind)",
                            start, last, lastLagMillis)
                    .isBetween(scheduled - behind - PER_TICK - 1, scheduled + PER_TICK + 1);

            // Round-robin: each user sent every USERS_PER_THREAD-th message, so its own interval is steady.
            Map<String, List<Long>> byUser = sent.stream()
                    .collect(Collectors.groupingBy(
                            r -> r[14],
                            TreeMap::new,
                            Collectors.mapping(ScheduledSendIT::sentMicros, Collectors.toList())));
            assertThat(byUser).hasSize(USERS_PER_THREAD);
            long fewest = byUser.values().stream().mapToLong(List::size).min().orElseThrow();
            long most = byUser.values().stream().mapToLong(List::size).max().orElseThrow();
            assertThat(most - fewest).as("sends per user").isLessThanOrEqualTo(1);
            for (List<Long> sends : byUser.values()) {
                // A user's first and last sends each lag their due times by no more than that bound, and none left
                // more than a tick early: so much may its mean interval differ.
                double meanIntervalUs = (double) (sends.get(sends.size() - 1) - sends.get(0)) / (sends.size() - 1);
                double slackUs = (worstLagMillis * 1000 + TICK_MILLIS * 1000) / (sends.size() - 1);
                assertThat(meanIntervalUs)
                        .as("mean interval of a user's sends, the worst lag %.3f ms", worstLagMillis)
                        .isCloseTo(USERS_PER_THREAD * INTERVAL_US, within(Math.max(slackUs, 1.0)));
            }
        }
    }

    /**
     * The worst lag of a sample's wake-ups from its message: {@code the first 1.25 ms behind schedule, at most 3.5 ms}
     * (one wake-up: {@code the first 1.25 ms behind schedule}), 0 where it was early.
     */
    private static double worstWakeUpLagMillis(String responseMessage) {
        Matcher atMost = Pattern.compile(", at most (-?[0-9.]+) ms").matcher(responseMessage);
        return Math.max(lagMillis(responseMessage), atMost.find() ? Double.parseDouble(atMost.group(1)) : 0);
    }

    /** A tick's lag from its message: {@code ... 1.25 ms behind schedule ...}, or 0 where it was early. */
    private static double lagMillis(String responseMessage) {
        Matcher behind = Pattern.compile("([0-9.]+) ms behind schedule").matcher(responseMessage);
        return behind.find() ? Double.parseDouble(behind.group(1)) : 0;
    }

    private static long sentMicros(String[] record) {
        return Long.parseLong(record[11]);
    }

    /** From the timing log's sender_user, "senders #17". */
    private static int userNumber(String[] record) {
        return Integer.parseInt(record[14].substring(record[14].lastIndexOf('#') + 1));
    }
}
