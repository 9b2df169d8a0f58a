package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.Parameter.decimal;
import static io.github.sockjsstomp.sampler.Parameter.optional;
import static io.github.sockjsstomp.sampler.Parameter.parsed;
import static io.github.sockjsstomp.sampler.Parameter.range;
import static io.github.sockjsstomp.sampler.Parameter.required;
import static io.github.sockjsstomp.sampler.Parameter.whole;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.deflate.DeflateOffer;
import io.github.sockjsstomp.client.message.AckMode;
import io.github.sockjsstomp.client.message.HandshakeHeaderList;
import io.github.sockjsstomp.client.message.HeaderList;
import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.serverside.SourceSpec;
import io.github.sockjsstomp.steps.StepKind;
import io.github.sockjsstomp.timing.ReplyIdFinder;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.TimingOptions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Every parameter of every sampler, with its one typed default: what users see first in JMeter's GUI. */
final class StompParameters {

    static final int MAX_USERS_PER_THREAD = 100_000;

    // Where, how and who: the session sampler's and the receive sampler's.
    static final Parameter<String> SCHEME = required("scheme", "http", "http or https");
    static final Parameter<String> HOST = required("host", "127.0.0.1", null);
    static final Parameter<Long> PORT = whole("port", 8080, range(1, 65535), null);
    static final Parameter<String> ENDPOINT =
            required("endpoint", "/ws", "SockJS endpoint path, or WebSocket path for raw");
    static final Parameter<Transport> TRANSPORT = parsed(
            "transport",
            "auto",
            Transport.allowedValues() + " (auto: SockJS where the endpoint's /info answers, else a plain WebSocket)",
            Transport::fromParameter);
    static final Parameter<String> INDEX_PATH =
            optional("indexPath", "", "a page to GET before connecting (cookies kept); empty or none skips it");
    static final Parameter<String> PULL_PATH =
            optional("pullPath", "", "a request to GET after the index; empty or none skips it");
    static final Parameter<String> FORM_LOGIN_PATH = optional(
            "formLoginPath",
            "",
            "a login page (e.g. /login): its form is posted with the user's login, passcode and CSRF token");
    static final Parameter<String> CSRF_PATH = optional(
            "csrfPath",
            "",
            "a page with <meta name=\"_csrf\"> or a JSON CsrfToken endpoint (e.g. /csrf): its token goes into CONNECT");
    static final Parameter<Template> BEARER_TOKEN = parsed(
            "bearerToken",
            "",
            "Authorization: Bearer token on the handshake; may use {{login}} {{passcode}} {{userNumber}}",
            text -> Template.parse(text.trim(), Template.TOKEN));
    static final Parameter<Boolean> BEARER_ON_CONNECT = parsed(
            "bearerOnConnect",
            "true",
            "true: the token also goes into CONNECT's Authorization header",
            StompParameters::bool);
    static final Parameter<Template> LOGIN = parsed(
            "login",
            "",
            "STOMP login, e.g. guest (every user) or user-{{userNumber}} (unique)",
            text -> Template.parse(text.trim(), Template.LOGIN));
    static final Parameter<String> PASSCODE = optional("passcode", "", null);
    static final Parameter<String> USERS_FILE =
            optional("usersFile", "", "CSV file of login,passcode lines, one per user; overrides login");
    static final Parameter<Map<String, String>> CONNECT_HEADERS =
            parsed("connectHeaders", "", "extra CONNECT headers: name:value;name2:value2", HeaderList::parse);
    static final Parameter<DeflateOffer> COMPRESSION = parsed(
            "compression",
            DeflateOffer.BROWSER_WORD,
            "WebSocket compression offered on the upgrade: browser (what browsers offer: permessage-deflate; "
                    + "client_max_window_bits), off, or an offer written out (permessage-deflate; ...)",
            DeflateOffer::parse);
    static final Parameter<HandshakeHeaderList> HANDSHAKE_HEADERS = parsed(
            "handshakeHeaders",
            "",
            "HTTP headers of the handshake and SockJS requests: name:value;... (Origin defaults to the server's own, "
                    + "User-Agent to the plugin's; Origin: with no value sends none); may use {{userNumber}} "
                    + "{{thread}} {{user}} {{login}}",
            HandshakeHeaderList::parse);
    static final Parameter<Long> HEARTBEAT_MILLIS =
            whole("heartbeatMillis", 10_000, range(0, Integer.MAX_VALUE), "STOMP heart-beat both ways; 0 = off");
    static final Parameter<Long> CONNECT_TIMEOUT_MILLIS =
            whole("connectTimeoutMillis", 10_000, range(1, Integer.MAX_VALUE), null);
    static final Parameter<Long> SESSIONS_PER_THREAD = whole(
            "sessionsPerThread",
            1,
            range(1, MAX_USERS_PER_THREAD),
            "virtual users this thread owns, each with its STOMP session");
    static final Parameter<Long> USERS = parsed(
            "users",
            "0",
            "virtual users of this thread group, shared among its threads (shares differ by at most one); "
                    + "0 = sessionsPerThread each",
            StompParameters::userCount);
    static final Parameter<Double> CONNECTS_PER_SECOND = decimal(
            "connectsPerSecond",
            0,
            range(0.0, 1_000_000.0),
            "this thread's connect rate; 0 = as fast as they complete");
    // The session sampler's own.
    static final Parameter<Long> CONNECTS_IN_FLIGHT = whole(
            "connectsInFlight",
            8,
            range(1, 1024),
            "this thread's connects under way at once (a plain WebSocket one on no thread of its own, one with login "
                    + "steps or SockJS on a connect lane of the thread's); "
                    + "1 = one after another on the JMeter thread");
    static final Parameter<Boolean> WARM_UP = parsed(
            "warmUp",
            "true",
            "true: this JVM's first connect waits while the generator warms its per-message code (sockjsstomp.warmUp="
                    + "false turns it off everywhere); false: a plan that sends and times no messages",
            StompParameters::bool);
    // Dead clients: the session sampler's own.
    static final Parameter<Double> SILENT_AFTER_SECONDS = decimal(
            "silentAfterSeconds",
            10,
            range(0.0, 31_536_000.0),
            "seconds (decimals allowed) from its connect until a silent session stops sending, heart-beats too");
    static final Parameter<Double> SILENT_SHARE = decimal(
            "silentShare",
            0,
            range(0.0, 1.0),
            "share of the users whose sessions go silent (dead clients that keep their connection), evenly "
                    + "spread; 0 = none");
    static final Parameter<List<Template>> SUBSCRIBE_TO =
            parsed("subscribeTo", "", "destinations, comma-separated", text -> Destinations.parse(text));
    static final Parameter<List<Template>> RECEIVE_FROM = parsed(
            "subscribeTo", "/user/queue/chat", "destinations, comma-separated", text -> Destinations.parse(text));
    static final Parameter<SubscribeHeaders> SUBSCRIBE_HEADERS = parsed(
            "subscribeHeaders",
            "",
            "extra SUBSCRIBE headers: name:value;name2:value2 (e.g. prefetch-count:50, x-queue-name:q.{{userNumber}}); "
                    + "values may use {{userNumber}} {{thread}} {{user}} {{login}}; id replaces ours; ack as ack says",
            SubscribeHeaders::parse);
    static final Parameter<AckMode> ACK = parsed(
            "ack",
            "auto",
            "auto (nothing acknowledged), client-individual (each message ACKed) or client (a cumulative ACK every "
                    + "ackEvery messages)",
            AckMode::parse);
    static final Parameter<Long> ACK_EVERY = whole(
            "ackEvery",
            1,
            range(1, 1_000_000),
            "with ack=client: one cumulative ACK every this many messages, and one for the rest at the session's end");
    static final Parameter<Long> CONSUME_MILLIS = whole(
            "consumeMillis",
            0,
            range(0, 3_600_000),
            "the consumer's processing time per message before its ACK, one message after another; 0 = none");
    static final Parameter<Double> NACK_SHARE = decimal(
            "nackShare",
            0,
            range(0.0, 1.0),
            "share of the messages NACKed instead of ACKed (0 to 1, evenly spread; redeliveries are ACKed); 0 = none");

    // What a message needs: the send sampler's.
    static final Parameter<Template> DESTINATION = parsed(
            "destination",
            "/app/echo",
            "may use {{userNumber}} {{thread}} {{user}} {{login}}",
            text -> Destinations.parseOne(text));
    static final Parameter<Template> PAYLOAD = parsed(
            "payload",
            "{\"id\":\"{{msgId}}\",\"seq\":{{seq}},\"user\":\"{{user}}\",\"text\":\"hello\"}",
            "placeholders: {{msgId}} {{seq}} {{thread}} {{userNumber}} {{user}} {{login}} {{sentAt}}",
            text -> Template.parse(text, Template.PAYLOAD));
    static final Parameter<Map<String, String>> SEND_HEADERS =
            parsed("sendHeaders", "", "SEND headers: name:value;name2:value2", HeaderList::parse);
    static final Parameter<SendMode> MODE = parsed(
            "mode",
            SendMode.FIRE_AND_FORGET.text,
            SendMode.allowedValues()
                    + " (await-receipt: the sample waits for the server's RECEIPT, for apps that answer nothing)",
            SendMode::of);
    static final Parameter<Boolean> RECEIPTS = parsed(
            "receipts",
            "false",
            "true: every SEND asks for a RECEIPT; "
                    + "its time goes to the timing log's receipt_us (always on with mode=await-receipt)",
            StompParameters::bool);
    static final Parameter<Boolean> REPLY_SAMPLES = parsed(
            "replySamples",
            "false",
            "true: a replies sampler (its own thread group) makes a row of every message, so this sampler's "
                    + "rows that sent messages are kept out of the listeners (a row stays where it is no message's "
                    + "outcome: a user that could not reconnect, a server's refusal)",
            StompParameters::bool);
    static final String LOOP_CLOSED = "closed";
    static final String LOOP_BLOCKING = "blocking";
    static final Parameter<String> LOOP = parsed(
            "loop",
            LOOP_BLOCKING,
            "with await-reply or await-receipt: closed = each of the thread's users sends, waits for its answer (or "
                    + "LOST at replyTimeoutMillis), pauses pauseMillis and sends again, the thread driving them all, a "
                    + "sample gathering their round trips; blocking = one message per sample on the user in turn, the "
                    + "thread waiting for its answer (for threads that do other work between messages)",
            StompParameters::loop);
    static final Parameter<Long> PAUSE_MILLIS = whole(
            "pauseMillis",
            0,
            range(0, Integer.MAX_VALUE),
            "with loop=closed: each user's think time after its message's outcome, before its next send");
    static final String REPLY_FROM_AUTO = "auto";
    static final String REPLY_FROM_SENDER = "sender";
    static final String REPLY_FROM_ANY = "any";
    static final Parameter<String> REPLY_FROM = parsed(
            "replyFrom",
            REPLY_FROM_AUTO,
            "whose reply answers a message: "
                    + "sender (its own session), any (chat: any user's), auto (sender for await-reply, else any)",
            StompParameters::replyFrom);
    static final Parameter<Long> REPLY_TIMEOUT_MILLIS =
            whole("replyTimeoutMillis", 5000, range(1, Integer.MAX_VALUE), "after this a message is LOST");
    static final Parameter<Long> REPLIES_PER_MESSAGE =
            whole("repliesPerMessage", 1, range(0, 1_000_000), "0 = broadcast: every reply until the timeout");
    static final Parameter<String> ID_HEADER =
            optional("idHeader", TimingOptions.DEFAULT_ID_HEADER, "header stamped with the message id; empty = none");
    static final Parameter<Pattern> REPLY_ID_PATTERN =
            parsed("replyIdPattern", "", "regex with one group finding the id in a reply body", ReplyIdFinder::pattern);
    static final Parameter<String> TIMING_LOG =
            optional("timingLog", "stomp-timing.csv", "CSV file of per-message outcomes; empty = none");

    // The server's own figures, polled during the run: the session sampler's and the receive sampler's.
    static final Parameter<List<SourceSpec>> SERVER_FIGURES = parsed(
            "serverFigures",
            "",
            "the server's figures polled into serverFiguresLog, comma-separated: actuator:<url of a Spring Boot "
                    + "actuator>, rabbitmq:<url of RabbitMQ's management API, user:password@ in it>, "
                    + "pid:<process id on this machine>; empty = none",
            SourceSpec::parseList);
    static final Parameter<Long> SERVER_FIGURES_MILLIS =
            whole("serverFiguresMillis", 1000, range(100, 3_600_000), "how often the server's figures are polled");
    static final Parameter<String> SERVER_FIGURES_LOG = optional(
            "serverFiguresLog",
            "stomp-server.csv",
            "CSV file of the server's figures (epoch_ms,source,metric,value; appended)");

    // A listener's: the receive sampler's.
    /** Messages the receive sampler keeps between samples before they are counted as overflow. */
    static final int INBOX_CAPACITY = 100_000;

    /** At most what the inbox holds: a sample cannot wait for more than it can keep. */
    static final Parameter<Long> EXPECT_MESSAGES =
            whole("expectMessages", 1, range(1, INBOX_CAPACITY), "messages each sample waits for");

    static final Parameter<Long> RECEIVE_TIMEOUT_MILLIS =
            whole("receiveTimeoutMillis", 10_000, range(1, Integer.MAX_VALUE), "longest wait per sample");
    static final Parameter<Long> WINDOW_MILLIS =
            whole("windowMillis", 0, range(0, Integer.MAX_VALUE), "> 0: collect for exactly this long instead");
    static final Parameter<String> TRIGGER_DESTINATION =
            optional("triggerDestination", "", "sent at the start of each sample; empty = none");
    static final Parameter<String> TRIGGER_PAYLOAD = optional("triggerPayload", "", null);

    // The replies sampler's.
    static final Parameter<Long> WAIT_MILLIS =
            whole("waitMillis", 1000, range(1, Integer.MAX_VALUE), "longest wait for the next finished message");
    static final Parameter<ReplyLabel> REPLY_LABEL = parsed(
            "replyLabel",
            ReplyLabel.DESTINATION.text,
            "the label of a message's row: destination = 'reply <destination as the plan writes it>' "
                    + "(/queue/d.{{userNumber}}: one label for every user's queue), sent = 'reply <destination as "
                    + "sent>' (a label per queue), one = 'reply' for every message",
            ReplyLabel::of);

    // The steps sampler's: a stepped run (docs/capacity.md).
    static final Parameter<StepKind> STEP_KIND = parsed(
            "stepKind",
            "rate",
            "what the steps change: rate (msg/s), users (online), looping (users of closed loops that loop) or consume "
                    + "(the consumers' ms per message before their ACK)",
            StepKind::of);
    static final Parameter<String> STEPS = required(
            "steps",
            "100,200,400",
            "this engine's offer per step: a list (1000,2000,4000), a factor (1000..8000*2) or an increment "
                    + "(1000..5000+1000); messages per SECOND for rate steps, online users for users steps");
    static final Parameter<Double> STEP_RAMP_SECONDS = decimal(
            "stepRampSeconds",
            5,
            range(0.0, 86_400.0),
            "seconds a step moves in a straight line from the step before's offer to its own");
    static final Parameter<Double> STEP_HOLD_SECONDS = decimal(
            "stepHoldSeconds",
            30,
            range(1.0, 86_400.0),
            "seconds a step holds its offer after its ramp; its figures and verdict are over the hold");
    static final Parameter<String> STEPS_START = required(
            "stepsStart",
            "+0",
            "when step 1's ramp begins: online (when this engine's users are online), online,+seconds (and not "
                    + "before), +seconds after the test's start, or an epoch time in milliseconds (the same for "
                    + "every engine of a distributed run, e.g. -GstepsStart=...)");
    static final Parameter<Boolean> STOP_ON_BREAK = parsed(
            "stopOnBreak",
            "false",
            "true: the test stops one step after the first step that breaks the service level",
            StompParameters::bool);
    static final Parameter<Double> SLO_P50_MILLIS = limit("sloP50Millis", "reply latency p50 limit, ms");
    static final Parameter<Double> SLO_P99_MILLIS = limit("sloP99Millis", "reply latency p99 limit, ms");
    static final Parameter<Double> SLO_P999_MILLIS = limit("sloP999Millis", "reply latency p99.9 limit, ms");
    static final Parameter<Double> SLO_LOST_PERCENT = limit("sloLostPercent", "lost messages limit, % of sent");
    static final Parameter<Double> SLO_FAILED_PERCENT = limit("sloFailedPercent", "failed messages limit, % of sent");
    static final Parameter<Double> SLO_CONNECT_FAILED_PERCENT =
            limit("sloConnectFailedPercent", "failed connects limit, % of the connects started in the hold");
    static final Parameter<Double> SLO_CONNECT_P99_MILLIS = limit("sloConnectP99Millis", "connect time p99 limit, ms");
    static final Parameter<Double> SLO_HEARTBEAT_MISSES = limit(
            "sloHeartbeatMisses", "sessions lost to missed heart-beats limit, a count over the hold (0: none may be)");
    static final Parameter<String> STEPS_LOG =
            optional("stepsLog", "stomp-steps.csv", "CSV file of one row per step (docs/capacity.md); empty = none");

    /** Set by the session sampler after each sample: true once all of the thread's users are connected. */
    static final String ALL_CONNECTED_VARIABLE = "stompAllConnected";

    /**
     * Set by the session sampler after each sample: true while some of the thread's users have not had their
     * first connect yet, false after; a plan's While Controller loops on it, since only the sampler knows the
     * thread's share of {@code users}.
     */
    static final String USERS_TO_CONNECT_VARIABLE = "stompUsersToConnect";

    private StompParameters() {}

    private static String replyFrom(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        if (!List.of(REPLY_FROM_AUTO, REPLY_FROM_SENDER, REPLY_FROM_ANY).contains(trimmed)) {
            throw new IllegalArgumentException(
                    "expected " + REPLY_FROM_AUTO + ", " + REPLY_FROM_SENDER + " or " + REPLY_FROM_ANY);
        }
        return trimmed;
    }

    private static String loop(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        if (!trimmed.equals(LOOP_CLOSED) && !trimmed.equals(LOOP_BLOCKING)) {
            throw new IllegalArgumentException("expected " + LOOP_CLOSED + " or " + LOOP_BLOCKING);
        }
        return trimmed;
    }

    private static long userCount(String value) {
        String trimmed = value.trim();
        try {
            long count = trimmed.isEmpty() ? 0 : Long.parseLong(trimmed);
            if (count >= 0 && count <= Integer.MAX_VALUE) {
                return count;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        // users was the users file's name before it became the number of users: say where a file goes now
        boolean looksLikeFile = trimmed.contains(".") || trimmed.contains("/") || trimmed.contains("\\");
        throw new IllegalArgumentException("expected a whole number of virtual users (0 = sessionsPerThread each)"
                + (looksLikeFile ? "; a file of login,passcode lines is usersFile (-JusersFile=" + trimmed + ")" : ""));
    }

    /** A service-level limit: empty (none) means not checked. */
    private static Parameter<Double> limit(String name, String description) {
        return parsed(name, "", description + "; empty = not checked", StompParameters::limitValue);
    }

    private static Double limitValue(String value) {
        String trimmed = value.trim();
        if (trimmed.isEmpty()) {
            return null;
        }
        try {
            double limit = Double.parseDouble(trimmed);
            if (limit >= 0 && !Double.isInfinite(limit)) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("expected a number, 0 or more, or empty (not checked)");
    }

    private static boolean bool(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        if (!trimmed.equals("true") && !trimmed.equals("false")) {
            throw new IllegalArgumentException("expected true or false");
        }
        return trimmed.equals("true");
    }
}
