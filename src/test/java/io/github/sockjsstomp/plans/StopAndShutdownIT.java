package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServerExtension;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * JMeter's Shutdown (let running samples finish) and Stop (StopTestNow: interrupt them) sent to a headless run
 * mid-test, the way bin/shutdown.sh and bin/stoptest.sh send them: a UDP datagram to the engine's port. The run
 * must end by itself long before its duration, with books that balance in jmeter.log and in the timing log.
 */
class StopAndShutdownIT {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final DemoServerExtension demo = new DemoServerExtension();

    @BeforeAll
    static void findJMeter() {
        PlanRun.jmeterHome();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Shutdown", "StopTestNow"})
    void aRunToldToEndMidTestEndsWithBalancedBooks(String command) throws Exception {
        int udpPort;
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            udpPort = probe.getLocalPort();
        }
        // Await-reply with replies that never come: only the command can end these samples early. No pause
        // between samples: once the first three have timed out, every thread is inside its next sample's wait, so
        // StopTestNow has a sample to interrupt (with a pause it could land in the timer, and no sample says so).
        PlanRun.Launch launch = PlanRun.launch(
                dir.resolve(command),
                "echo",
                false,
                List.of(
                        "port=" + demo.port(),
                        "indexPath=/index",
                        "pullPath=/clientPull",
                        "threads=3",
                        "rampUp=0",
                        "duration=600",
                        "pauseMillis=0",
                        "replyTimeoutMillis=2000",
                        "replySamples=false", // the echo rows' own codes are checked here
                        "destination=/topic/nobody-{{userNumber}}",
                        "jmeterengine.nongui.port=" + udpPort,
                        "jmeterengine.nongui.maxport=" + udpPort));
        launch.awaitTimingRecords(3);
        byte[] datagram = command.getBytes(StandardCharsets.US_ASCII);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.send(new DatagramPacket(datagram, datagram.length, InetAddress.getLoopbackAddress(), udpPort));
        }
        PlanRun run = launch.await();

        PlanRun.BooksLine books = run.books();
        long sent = books.sent();
        assertThat(books.balanced()).as(books.line()).isTrue();
        assertThat(books.pending()).as(books.line()).isZero();
        List<String[]> timing = run.timing();
        Map<String, Set<String>> idsByOutcome = timing.stream()
                .collect(Collectors.groupingBy(r -> r[1], Collectors.mapping(r -> r[2], Collectors.toSet())));
        assertThat(timing.stream().map(r -> r[2]).distinct().count()).isEqualTo(sent);
        assertThat(idsByOutcome.keySet()).isNotEmpty().isSubsetOf("LOST", "FAILED");
        // The sessions opened before the command came; every message sample after it ended early or timed out.
        assertThat(run.rows())
                .filteredOn(r -> r.get("label").equals("session"))
                .hasSize(3)
                .allSatisfy(r -> assertThat(r.get("success")).isEqualTo("true"));
        assertThat(run.rows())
                .filteredOn(r -> r.get("label").equals("echo"))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("responseCode")).isIn("ReplyTimeout", "Interrupted"));
        if (command.equals("StopTestNow")) {
            assertThat(run.rows()).anyMatch(r -> r.get("responseCode").equals("Interrupted"));
        }
    }
}
