package io.github.sockjsstomp.properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.sockjsstomp.properties.TypedPropertyCheck.Finding;
import io.github.sockjsstomp.properties.TypedPropertyCheck.Plan;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TypedPropertyCheckTest {

    /** The send test as the decided vocabulary has it. */
    private static final Plan SEND = new Plan(
            "send.jmx",
            Set.of(
                    "host",
                    "port",
                    "destination",
                    "subscribeTo",
                    "payload",
                    "pauseMillis",
                    "users",
                    "usersFile",
                    "threads"),
            "-J");

    private static List<Finding> check(Map<String, String> typed, Plan plan) {
        return TypedPropertyCheck.check(typed, plan, Set.of("language", "remote_hosts"));
    }

    @Test
    void aMisspeltPropertyNamesTheNearestThePlanReads() {
        assertThat(check(Map.of("destinaton", "/app/x"), SEND))
                .containsExactly(new Finding(
                        "destinaton", "-Jdestinaton=/app/x is not read by send.jmx: did you mean destination?", false));
    }

    @Test
    void aCaseDifferenceIsANearMiss() {
        assertThat(check(Map.of("subscribeto", "/topic/a"), SEND))
                .extracting(Finding::message)
                .containsExactly("-Jsubscribeto=/topic/a is not read by send.jmx: did you mean subscribeTo?");
    }

    @Test
    void anotherPlansPropertyIsSaidWithTheNearestThisPlanReads() {
        assertThat(check(Map.of("holdMillis", "1500"), SEND))
                .extracting(Finding::message, Finding::stops)
                .containsExactly(tuple(
                        "-JholdMillis=1500 is not read by send.jmx (another plan's property); the nearest it reads is"
                                + " pauseMillis",
                        false));
    }

    @Test
    void aNearestNameFarAwayIsNotNamed() {
        Plan greetings = new Plan("greetings.jmx", Set.of("host", "port", "csrfPath", "messages"), "-J");
        assertThat(check(Map.of("destination", "/topic/greetings"), greetings))
                .extracting(Finding::message)
                .containsExactly(
                        "-Jdestination=/topic/greetings is not read by greetings.jmx (another plan's property)");
    }

    @Test
    void whatThePlanReadsAndWhatIsNotOursAreNotSaid() {
        assertThat(check(
                        Map.of(
                                "destination", "/app/x",
                                "users", "10",
                                "myOwnSetting", "1",
                                "language", "en",
                                "remote_hosts", "a,b",
                                "jmeter.save.saveservice.output_format", "csv",
                                "summariser.interval", "30"),
                        SEND))
                .isEmpty();
    }

    @Test
    void jmeterOwnNamesAreNeverOurs() {
        assertThat(TypedPropertyCheck.check(Map.of("hots", "x"), SEND, Set.of("hots")))
                .isEmpty();
    }

    @Test
    void aRenamedPropertyStopsTheTestNamingTheNewOne() {
        assertThat(check(Map.of("sessionsPerThread", "10"), SEND))
                .containsExactly(new Finding(
                        "sessionsPerThread",
                        "-JsessionsPerThread=10 is not read by send.jmx: users (and threads) decide how many virtual"
                                + " users each thread runs; use -Jusers",
                        true));
        Plan connect = new Plan("connect.jmx", Set.of("subscribeTo", "users"), "-G");
        assertThat(check(Map.of("connectSubscribeTo", "/topic/a"), connect))
                .extracting(Finding::message, Finding::stops)
                .containsExactly(tuple(
                        "-GconnectSubscribeTo=/topic/a is not read by connect.jmx: the connect test's subscription is"
                                + " subscribeTo, as in the other plans; use -GsubscribeTo",
                        true));
        Plan connectSilent = new Plan("connect.jmx", Set.of("silentAfterSeconds", "silentShare"), "-J");
        assertThat(check(Map.of("silentAfter", "2"), connectSilent))
                .extracting(Finding::message, Finding::stops)
                .containsExactly(tuple(
                        "-JsilentAfter=2 is not read by connect.jmx: the time until a session goes silent is in"
                                + " seconds, and its name says so; use -JsilentAfterSeconds",
                        true));
    }

    /** throughput was messages per minute; typed as before it would run send.jmx at its default rate in silence. */
    @Test
    void throughputStopsTheSendTestNamingMessagesPerSecond() {
        Plan send = new Plan("send.jmx", Set.of("messagesPerSecond", "pacing", "users"), "-J");
        assertThat(check(Map.of("throughput", "120000"), send))
                .containsExactly(new Finding(
                        "throughput",
                        "-Jthroughput=120000 is not read by send.jmx: the send test's rate is in messages per second"
                                + " for all threads together, as the steps' rates are (throughput was messages per"
                                + " minute: divide it by 60); use -JmessagesPerSecond",
                        true));
        Plan remote = new Plan("send.jmx", send.reads(), "-G");
        assertThat(check(Map.of("throughput", "6000"), remote))
                .extracting(Finding::stops, finding -> finding.message().endsWith("; use -GmessagesPerSecond"))
                .containsExactly(tuple(true, true));
        assertThat(check(Map.of("messagesPerSecond", "0.5"), send)).isEmpty();
    }

    @Test
    void aRenamedPropertyThePlanStillReadsIsFine() {
        Plan older = new Plan("send.jmx", Set.of("sessionsPerThread", "users", "connectSubscribeTo"), "-J");
        assertThat(check(Map.of("sessionsPerThread", "10", "connectSubscribeTo", "/t", "users", "u.csv"), older))
                .isEmpty();
    }

    @Test
    void usersGivenAFileStopsTheTestNamingUsersFile() {
        assertThat(check(Map.of("users", "users.csv"), SEND))
                .containsExactly(new Finding(
                        "users",
                        "-Jusers=users.csv: users is the number of virtual users; a file of login,passcode lines is"
                                + " usersFile (-JusersFile=users.csv)",
                        true));
    }

    @Test
    void withThePlanUnknownOnlyNearMissesOfOurNamesAreSaid() {
        Plan unknown = new Plan("the plan", null, "-J");
        assertThat(check(
                        Map.of("destinaton", "/a", "destination", "/b", "sessionsPerThread", "2", "other", "1"),
                        unknown))
                .extracting(Finding::message)
                .containsExactly("-Jdestinaton=/a is not a property of the plans: did you mean destination?");
    }

    @Test
    void aMisspeltJvmWideSettingNamesTheNearestOne() {
        assertThat(check(Map.of("sockjsstomp.warmup", "false", "sockjsstomp.ioThreads", "2"), SEND))
                .extracting(Finding::message)
                .containsExactly("-Jsockjsstomp.warmup=false is not a setting of the plugin: did you mean"
                        + " sockjsstomp.warmUp?");
        assertThat(check(Map.of("sockjsstomp.colour", "red"), SEND))
                .extracting(Finding::message)
                .singleElement()
                .asString()
                .startsWith(
                        "-Jsockjsstomp.colour=red is not a setting of the plugin (it has sockjsstomp.connectThreads,");
    }

    @Test
    void aJvmWideSettingGivenAsSystemPropertyIsSaid() {
        assertThat(TypedPropertyCheck.systemProperties(
                        Map.of("sockjsstomp.warmUp", "false", "sockjsstomp.logfile", "x.log", "java.version", "17")))
                .extracting(Finding::message)
                .containsExactly("-Dsockjsstomp.warmUp=false is a JVM system property; the plugin reads its settings"
                        + " as JMeter properties: -Jsockjsstomp.warmUp");
    }
}
