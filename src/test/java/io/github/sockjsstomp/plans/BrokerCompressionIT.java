package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.broker.ArtemisBroker;
import io.github.sockjsstomp.broker.RabbitBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Brokers no one here wrote: RabbitMQ Web-STOMP with compression on ({@code web_stomp.ws_opts.compress = true},
 * cowboy's permessage-deflate), and Artemis, whose WebSocket acceptor declines the offer: send.jmx's books exact
 * either way, each message sent to the user's own queue and delivered back.
 */
class BrokerCompressionIT {

    @TempDir
    static Path dir;

    private static RabbitBroker compressing;
    private static ArtemisBroker declining;

    @BeforeAll
    static void startBrokers() throws Exception {
        PlanRun.jmeterHome();
        compressing = RabbitBroker.start(dir.resolve("compressing"), "web_stomp.ws_opts.compress = true");
        declining = ArtemisBroker.start(dir.resolve("artemis"), Map.of("guest", "guest"), 0);
    }

    @AfterAll
    static void stopBrokers() throws Exception {
        if (compressing != null) {
            compressing.close();
        }
        if (declining != null) {
            declining.close();
        }
    }

    private static PlanRun send(RabbitBroker broker, String name, String... more) throws Exception {
        return send(broker.planProperties(), name, more);
    }

    private static PlanRun send(List<String> broker, String name, String... more) throws Exception {
        List<String> properties = new ArrayList<>(broker);
        properties.addAll(List.of(
                "replySamples=false",
                "users=2",
                "threads=2",
                "rampUp=0",
                "duration=6",
                "messagesPerSecond=10",
                "destination=/queue/" + name + ".{{userNumber}}",
                "subscribeTo=/queue/" + name + ".{{userNumber}}",
                "replyTimeoutMillis=15000"));
        properties.addAll(List.of(more));
        return PlanRun.runClean(dir.resolve(name), "send", false, properties);
    }

    private static String console(PlanRun run) throws Exception {
        return Files.readString(run.dir().resolve("console.txt"));
    }

    /** The default payload, and one of 100 KB (half repeated words, half random letters) that spans many frames. */
    @ParameterizedTest
    @ValueSource(ints = {0, 100_000})
    void compressionIsAgreedByDefaultAndEveryMessageComesBack(int bytes) throws Exception {
        String[] payload = bytes == 0 ? new String[0] : new String[] {"payload={{msgId}} " + text(bytes)};
        PlanRun run = send(compressing, "deflate" + bytes, payload);
        assertThat(console(run))
                .contains("agreed on permessage-deflate")
                .contains("websocket extensions: 2 sessions permessage-deflate");
        assertThat(run.sentAllAnswered()).isPositive();
    }

    @Test
    void compressionOffAgreesOnNoneWithTheSameBroker() throws Exception {
        PlanRun run = send(compressing, "plain", "compression=off");
        assertThat(console(run)).contains("agreed on none (offered: off)");
        assertThat(run.sentAllAnswered()).isPositive();
    }

    /** A server that declines the offer is loaded as before: the run says it agreed on none. */
    @Test
    void aBrokerThatDeclinesTheOfferStillWorks() throws Exception {
        PlanRun run = send(declining.planProperties("login=guest", "passcode=guest"), "declined");
        assertThat(console(run))
                .contains("agreed on none (offered: permessage-deflate; client_max_window_bits)")
                .contains("websocket extensions: 2 sessions none");
        assertThat(run.sentAllAnswered()).isPositive();
    }

    private static String text(int bytes) {
        StringBuilder text = new StringBuilder(bytes);
        Random random = new Random(bytes);
        while (text.length() < bytes) {
            text.append(
                    text.length() < bytes / 2
                            ? "words said again "
                            : String.valueOf((char) ('a' + random.nextInt(26))));
        }
        text.setLength(bytes);
        return text.toString();
    }
}
