package io.github.sockjsstomp.properties;

import java.util.Map;
import java.util.Set;

/**
 * The names a user types for this project: the plans' properties (every {@code __P(name} of jmx/*.jmx, checked
 * by {@code PlanVocabularyTest}), the names the plans no longer read and what took their place, and the
 * JVM-wide {@code sockjsstomp.*} settings. One list, so a typed name can be told apart from JMeter's own.
 */
public final class PlanVocabulary {

    /** Every property some plan of jmx/ reads. */
    public static final Set<String> PLAN_PROPERTIES = Set.of(
            "ack",
            "ackEvery",
            "aliveMillis",
            "bearerOnConnect",
            "bearerToken",
            "compression",
            "connectHeaders",
            "connectTimeoutMillis",
            "consumeMillis",
            "connectsInFlight",
            "connectsPerSecond",
            "csrfPath",
            "destination",
            "duration",
            "endpoint",
            "formLoginPath",
            "handshakeHeaders",
            "heartbeatMillis",
            "holdMillis",
            "host",
            "indexPath",
            "login",
            "loop",
            "messages",
            "messagesPerSecond",
            "mode",
            "nackShare",
            "pacing",
            "passcode",
            "pauseMillis",
            "payload",
            "port",
            "pullPath",
            "pushBytes",
            "pushCount",
            "pushIntervalMillis",
            "rampUp",
            "receipts",
            "receiveTimeoutMillis",
            "receiverSubscribeHeaders",
            "receiverSubscribeTo",
            "receivers",
            "replyFrom",
            "replyLabel",
            "replySamples",
            "replyTimeoutMillis",
            "sampleMillis",
            "scheme",
            "sendHeaders",
            "serverFigures",
            "serverFiguresLog",
            "serverFiguresMillis",
            "senderDelay",
            "senderSubscribeHeaders",
            "senderSubscribeTo",
            "senders",
            "silentAfterSeconds",
            "silentShare",
            "subscribeHeaders",
            "subscribeTo",
            "threads",
            "tickMillis",
            "timingLog",
            "transport",
            "users",
            "usersFile",
            "sloConnectFailedPercent",
            "sloConnectP99Millis",
            "sloHeartbeatMisses",
            "sloFailedPercent",
            "sloLostPercent",
            "sloP50Millis",
            "sloP999Millis",
            "sloP99Millis",
            "stepHoldSeconds",
            "stepKind",
            "stepRampSeconds",
            "steps",
            "stepsLog",
            "stepsStart",
            "stopOnBreak");

    /**
     * Names the plans took once (or a sampler parameter a user may type as a property) and the property or
     * sampler parameter that says it now. Typed to a plan that does not read them they would be ignored and the run
     * would measure something else, so they stop the test.
     */
    public static final Map<String, String> RENAMED = Map.of(
            "sessionsPerThread", "users",
            "connectSubscribeTo", "subscribeTo",
            "triggerDestination", "destination",
            "silentAfter", "silentAfterSeconds",
            "ratePerThread", "messagesPerSecondPerThread",
            "throughput", "messagesPerSecond");

    /** Why a renamed name went, said with the name that replaced it. */
    public static final Map<String, String> RENAMED_BECAUSE = Map.of(
            "sessionsPerThread",
            "users (and threads) decide how many virtual users each thread runs",
            "connectSubscribeTo",
            "the connect test's subscription is subscribeTo, as in the other plans",
            "triggerDestination",
            "the push test's trigger is sent to destination",
            "silentAfter",
            "the time until a session goes silent is in seconds, and its name says so",
            "ratePerThread",
            "the send sampler's scheduled rate is in messages per second, as the steps' rates are (it was per minute)",
            "throughput",
            "the send test's rate is in messages per second for all threads together, as the steps' rates are"
                    + " (throughput was messages per minute: divide it by 60)");

    /** The number of virtual users; a value that is not a number is the users file, now {@link #USERS_FILE}. */
    public static final String USERS = "users";

    public static final String USERS_FILE = "usersFile";

    /** The prefix of the JVM-wide settings, read from JMeter properties (-J) by the samplers. */
    public static final String JVM_WIDE_PREFIX = "sockjsstomp.";

    /** The JVM-wide settings (after {@link #JVM_WIDE_PREFIX}) the plugin reads as JMeter properties. */
    public static final Set<String> JVM_WIDE = Set.of(
            "connectThreads",
            "heartbeatThreads",
            "maxTextMessageChars",
            "maxMessageBytes",
            "sendTimeLimitMillis",
            "ioBufferBytes",
            "ioThreads",
            "reconnectMinMillis",
            "reconnectMaxMillis",
            "warmUp",
            "onTimingLogFailure",
            "replySummary");

    /** The one JVM system property (-D) of ours: where log4j2.xml writes sockjs-stomp.log. */
    public static final String LOG_FILE_SYSTEM_PROPERTY = "sockjsstomp.logfile";

    private PlanVocabulary() {}
}
