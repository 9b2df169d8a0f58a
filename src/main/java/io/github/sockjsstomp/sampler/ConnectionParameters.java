package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.ACK;
import static io.github.sockjsstomp.sampler.StompParameters.ACK_EVERY;
import static io.github.sockjsstomp.sampler.StompParameters.BEARER_ON_CONNECT;
import static io.github.sockjsstomp.sampler.StompParameters.BEARER_TOKEN;
import static io.github.sockjsstomp.sampler.StompParameters.COMPRESSION;
import static io.github.sockjsstomp.sampler.StompParameters.CONNECTS_PER_SECOND;
import static io.github.sockjsstomp.sampler.StompParameters.CONNECT_HEADERS;
import static io.github.sockjsstomp.sampler.StompParameters.CONNECT_TIMEOUT_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.CONSUME_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.CSRF_PATH;
import static io.github.sockjsstomp.sampler.StompParameters.ENDPOINT;
import static io.github.sockjsstomp.sampler.StompParameters.FORM_LOGIN_PATH;
import static io.github.sockjsstomp.sampler.StompParameters.HANDSHAKE_HEADERS;
import static io.github.sockjsstomp.sampler.StompParameters.HEARTBEAT_MILLIS;
import static io.github.sockjsstomp.sampler.StompParameters.HOST;
import static io.github.sockjsstomp.sampler.StompParameters.INDEX_PATH;
import static io.github.sockjsstomp.sampler.StompParameters.LOGIN;
import static io.github.sockjsstomp.sampler.StompParameters.NACK_SHARE;
import static io.github.sockjsstomp.sampler.StompParameters.PASSCODE;
import static io.github.sockjsstomp.sampler.StompParameters.PORT;
import static io.github.sockjsstomp.sampler.StompParameters.PULL_PATH;
import static io.github.sockjsstomp.sampler.StompParameters.SCHEME;
import static io.github.sockjsstomp.sampler.StompParameters.SESSIONS_PER_THREAD;
import static io.github.sockjsstomp.sampler.StompParameters.SUBSCRIBE_HEADERS;
import static io.github.sockjsstomp.sampler.StompParameters.TRANSPORT;
import static io.github.sockjsstomp.sampler.StompParameters.USERS;
import static io.github.sockjsstomp.sampler.StompParameters.USERS_FILE;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import io.github.sockjsstomp.client.login.UsersFile;
import io.github.sockjsstomp.client.message.AckMode;
import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.AckCounts;
import io.github.sockjsstomp.client.user.AckSettings;
import io.github.sockjsstomp.client.user.SteppedConsumeTime;
import io.github.sockjsstomp.client.user.UserBehaviour;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import io.github.sockjsstomp.properties.ClientProperties;
import io.github.sockjsstomp.threadusers.GroupThreads;
import io.github.sockjsstomp.threadusers.SilentSessions;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.threadusers.UserShare;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.warmup.WarmedClients;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * Where, how and who: the parameters that make a thread's virtual users, read once per thread. Credentials
 * three ways: one {@code login} for every user; a login with {@code {{userNumber}}} for unique generated
 * names; or a {@code usersFile} with a line per user. How many: the thread's share of {@code users} (the thread
 * group's, see {@link UserShare}), or {@code sessionsPerThread} when {@code users} is 0.
 */
final class ConnectionParameters {

    /**
     * The connection parameters, in the order the panel lists them; {@code subscribe} is the sampler's own, its
     * headers ({@code subscribeHeaders}) and how its messages are acknowledged follow it.
     */
    static List<Parameter<?>> list(Parameter<List<Template>> subscribe) {
        return List.of(
                SCHEME,
                HOST,
                PORT,
                ENDPOINT,
                TRANSPORT,
                INDEX_PATH,
                PULL_PATH,
                FORM_LOGIN_PATH,
                CSRF_PATH,
                BEARER_TOKEN,
                BEARER_ON_CONNECT,
                LOGIN,
                PASSCODE,
                USERS_FILE,
                CONNECT_HEADERS,
                COMPRESSION,
                HANDSHAKE_HEADERS,
                HEARTBEAT_MILLIS,
                CONNECT_TIMEOUT_MILLIS,
                USERS,
                SESSIONS_PER_THREAD,
                CONNECTS_PER_SECOND,
                subscribe,
                SUBSCRIBE_HEADERS,
                ACK,
                ACK_EVERY,
                CONSUME_MILLIS,
                NACK_SHARE);
    }

    private ConnectionParameters() {}

    /**
     * What a thread's users are made of, read from its parameters, nothing built yet: the JVM's shared clients come
     * from {@link WarmedClients} ({@link #clients}), the users from {@link #users}.
     *
     * @param warmUp whether the JVM's message warm-up is this thread's to wait for
     */
    record Settings(
            UserSettings.Server server,
            WebLogin web,
            UserSettings.ConnectOptions connect,
            Logins logins,
            UserShare share,
            double connectsPerSecond,
            List<Template> subscribeTo,
            SubscribeHeaders subscribeHeaders,
            AckSettings acks,
            ClientSettings clients,
            boolean warmUp) {

        /** The JVM's shared clients, warmed for these users' transport first when {@link #warmUp}. */
        SharedStompClients sharedClients() {
            return WarmedClients.get(clients, server.transport(), connect.heartbeatMillis(), warmUp);
        }
    }

    /** What the thread's users are made of; null when a parameter is bad (the reader has the problems). */
    static Settings read(ParameterReader params, Parameter<List<Template>> subscribe, Run run) {
        return read(params, subscribe, true, run);
    }

    /**
     * What the thread's users are made of; null when a parameter is bad (the reader has the problems).
     *
     * @param planTimesMessages whether the plan sends or times messages: a connect-only plan's session sampler says
     *     not, and the JVM's message warm-up is not its to pay (2.7 s of CPU before its first connect)
     */
    static Settings read(
            ParameterReader params, Parameter<List<Template>> subscribe, boolean planTimesMessages, Run run) {
        UserSettings.Server server = server(params);
        WebLogin web = webLogin(params);
        UserSettings.ConnectOptions connect = connectOptions(params);
        if (!params.hasErrors()) {
            checkUrls(params, server, web);
        }
        Logins logins = new Logins(
                params.read(LOGIN), params.read(PASSCODE), params.read(BEARER_TOKEN), usersFile(params, run));
        UserShare share = share(params, run);
        double connectsPerSecond = params.read(CONNECTS_PER_SECOND);
        List<Template> subscribeTo = params.read(subscribe);
        SubscribeHeaders subscribeHeaders = subscribeHeaders(params, subscribeTo);
        AckSettings acks = acks(params, subscribeHeaders, run.acks(), run.consumeTime());
        var clientSettings = ClientProperties.read(params);
        boolean warmUp = ClientProperties.warmUp(params) && planTimesMessages;
        if (params.hasErrors() || share == null) {
            return null;
        }
        return new Settings(
                server,
                web,
                connect,
                logins,
                share,
                connectsPerSecond,
                subscribeTo,
                subscribeHeaders,
                acks,
                clientSettings,
                warmUp);
    }

    /**
     * The thread's users, none connected yet, on the JVM's {@code shared} clients.
     *
     * @param connectsInFlight how many of their connects may be under way at once (the session sampler's)
     * @param silent which of them go silent (the session sampler's dead clients)
     */
    static ThreadUsers users(
            Settings settings, SharedStompClients shared, int connectsInFlight, SilentSessions.Share silent, Run run) {
        UserSettings.ConnectOptions connect = settings.connect();
        // One probe per thread: transport auto asks each endpoint once, and failures get their hints.
        TransportProbe probe = new TransportProbe(shared.httpClient(), (int) connect.timeoutMillis());
        int thread = threadNumber();
        String group = groupName();
        UserShare share = settings.share();
        Logins logins = settings.logins();
        UserBehaviour behaviour =
                UserBehaviour.PLAIN.consumingWith(settings.acks()).tellingLossesTo(run.capacity());
        List<VirtualUser> users = new ArrayList<>(share.count());
        for (int k = 1; k <= share.count(); k++) {
            int number = share.firstNumber() + k - 1;
            UserSettings.Credentials credentials = logins.credentials(thread, number);
            UserSettings user = new UserSettings(
                    group + " #" + number,
                    thread,
                    number,
                    credentials,
                    settings.server(),
                    settings.web().withBearerToken(logins.bearerToken(credentials, thread, number)),
                    connect);
            users.add(new VirtualUser(shared, user, silent.of(number, behaviour), probe));
        }
        return new ThreadUsers(
                users,
                settings.subscribeTo(),
                settings.subscribeHeaders(),
                settings.connectsPerSecond(),
                connectsInFlight,
                run.capacity());
    }

    /** How the users open their sessions (a bad value's default stands in; the reader has the problem). */
    static UserSettings.ConnectOptions connectOptions(ParameterReader params) {
        return new UserSettings.ConnectOptions(
                params.read(CONNECT_HEADERS),
                params.read(HEARTBEAT_MILLIS),
                params.read(CONNECT_TIMEOUT_MILLIS),
                params.read(COMPRESSION),
                params.read(HANDSHAKE_HEADERS));
    }

    /**
     * The headers of every SUBSCRIBE; an {@code id} names one subscription, so it goes with one destination only
     * (two SUBSCRIBEs of a session under one id: the broker refuses the second, or merges them).
     */
    static SubscribeHeaders subscribeHeaders(ParameterReader params, List<Template> subscribeTo) {
        SubscribeHeaders headers = params.read(SUBSCRIBE_HEADERS);
        if (headers.hasId() && subscribeTo.size() > 1) {
            params.error(
                    SUBSCRIBE_HEADERS.name,
                    headers.source(),
                    "an id names one subscription, and subscribeTo has " + subscribeTo.size()
                            + " destinations: give the id with one destination, or leave it out");
        }
        return headers;
    }

    /**
     * How the users acknowledge what their subscriptions deliver; null when a value is bad (the reader has the
     * problems). An {@code ack} in {@code subscribeHeaders} must say what {@code ack} says: the parameter is what
     * makes the client send the ACKs.
     */
    static AckSettings acks(
            ParameterReader params, SubscribeHeaders headers, AckCounts counts, SteppedConsumeTime stepped) {
        AckMode mode = params.read(ACK);
        long every = params.read(ACK_EVERY);
        long consumeMillis = params.read(CONSUME_MILLIS);
        double nackShare = params.read(NACK_SHARE);
        AckMode written = headers.ackMode();
        if (mode != null && written != null && written != mode) {
            params.error(
                    SUBSCRIBE_HEADERS.name,
                    headers.source(),
                    "it says ack:" + written + " and ack is " + mode + ": give the mode in ack alone (or the same in "
                            + "both)");
        }
        if (mode == AckMode.AUTO && nackShare > 0) {
            params.error(
                    NACK_SHARE.name,
                    Double.toString(nackShare),
                    "with ack=auto nothing is acknowledged, so nothing can be NACKed: set ack=client-individual or "
                            + "ack=client");
        }
        if (mode == AckMode.AUTO && consumeMillis > 0) {
            params.error(
                    CONSUME_MILLIS.name,
                    Long.toString(consumeMillis),
                    "with ack=auto the broker counts a message consumed once sent, so no consumer time can hold it: "
                            + "set ack=client-individual or ack=client");
        }
        if (params.hasErrors() || mode == null) {
            return null;
        }
        return mode == AckMode.AUTO
                ? AckSettings.AUTO
                : new AckSettings(mode, Math.toIntExact(every), consumeMillis, nackShare, counts, stepped);
    }

    /** Each user's login, passcode and bearer token: a users file's line, else the same for all, or templates. */
    private record Logins(Template login, String passcode, Template bearer, UsersFile usersFile) {

        UserSettings.Credentials credentials(int thread, int number) {
            if (usersFile == null) {
                return new UserSettings.Credentials(
                        login.render((name, out) -> out.append(name.equals("thread") ? thread : number)), passcode);
            }
            UserSettings.Credentials line = usersFile.user(number);
            return line.passcode().isEmpty() ? new UserSettings.Credentials(line.login(), passcode) : line;
        }

        String bearerToken(UserSettings.Credentials credentials, int thread, int number) {
            return bearer.render((name, out) -> out.append(
                    switch (name) {
                        case "login" -> credentials.login();
                        case "passcode" -> credentials.passcode();
                        case "thread" -> Integer.toString(thread);
                        default -> Integer.toString(number);
                    }));
        }
    }

    /** Where the users connect; null when scheme is not http or https (the reader has the problem). */
    private static UserSettings.Server server(ParameterReader params) {
        String scheme = params.read(SCHEME).toLowerCase();
        if (!scheme.equals("http") && !scheme.equals("https")) {
            params.error(SCHEME.name, scheme, "expected http or https");
        }
        String host = params.read(HOST);
        int port = params.readInt(PORT);
        String endpoint = params.read(ENDPOINT);
        Transport transport = params.read(TRANSPORT);
        if (params.hasErrors()) {
            return null;
        }
        try {
            return new UserSettings.Server(scheme, host, port, endpoint, transport);
        } catch (IllegalArgumentException e) {
            // the server makes its URLs once: a host or endpoint that makes none fails here, not in every connect
            params.error(
                    HOST.name + "/" + ENDPOINT.name, host + " " + endpoint, "do not make a URL: " + e.getMessage());
            return null;
        }
    }

    /** The login steps every user of the thread takes; each user's bearer token is set later. */
    private static WebLogin webLogin(ParameterReader params) {
        return new WebLogin(
                params.read(INDEX_PATH),
                params.read(PULL_PATH),
                params.read(FORM_LOGIN_PATH),
                params.read(CSRF_PATH),
                "",
                params.read(BEARER_ON_CONNECT));
    }

    /** Login paths that make no URL fail here, once, not as an exception in every connect (the server's: above). */
    private static void checkUrls(ParameterReader params, UserSettings.Server server, WebLogin web) {
        Map<Parameter<String>, String> paths = Map.of(
                INDEX_PATH,
                web.indexPath(),
                PULL_PATH,
                web.pullPath(),
                FORM_LOGIN_PATH,
                web.formLoginPath(),
                CSRF_PATH,
                web.csrfPath());
        paths.forEach((parameter, path) -> {
            try {
                server.httpUri(path.isEmpty() ? "/" : path);
            } catch (IllegalArgumentException e) {
                params.error(parameter.name, path, "does not make a URL: " + e.getMessage());
            }
        });
    }

    /**
     * This thread's users: its share of the thread group's {@code users}, said once per run and group on the
     * console, or {@code sessionsPerThread} when {@code users} is 0; null when they cannot be shared.
     */
    private static UserShare share(ParameterReader params, Run run) {
        long users = params.read(USERS);
        int perThread = params.readInt(SESSIONS_PER_THREAD);
        int thread = threadNumber();
        int threads = GroupThreads.ofThisThread(run);
        if (users == 0 || params.hasErrors()) {
            expect(run, (long) perThread * threads);
            return new UserShare(perThread, (thread - 1) * perThread + 1);
        }
        if (users < threads) {
            params.error(
                    USERS.name,
                    Long.toString(users),
                    "fewer users than the thread group's " + threads + " threads, and each thread needs one: "
                            + "give threads at most " + users + " (or leave threads out)");
            return null;
        }
        if (users / threads > StompParameters.MAX_USERS_PER_THREAD) {
            params.error(
                    USERS.name,
                    Long.toString(users),
                    "more than " + StompParameters.MAX_USERS_PER_THREAD + " users per thread on " + threads
                            + " threads: give more threads");
            return null;
        }
        String name = groupName();
        run.noticeOnce("users of " + name, name + ": " + UserShare.placement(users, threads));
        expect(run, users);
        return UserShare.of(users, threads, Math.min(thread, threads));
    }

    /** The group's users, which steps that begin online wait for. */
    private static void expect(Run run, long users) {
        run.expectedUsers().group(groupName(), users);
    }

    private static UsersFile usersFile(ParameterReader params, Run run) {
        String path = params.read(USERS_FILE).trim();
        if (path.isEmpty()) {
            return null;
        }
        try {
            return run.usersFile(Path.of(path));
        } catch (IllegalArgumentException e) {
            params.error(USERS_FILE.name, path, e.getMessage());
            return null;
        }
    }

    /** The JMeter thread's number, from 1. */
    private static int threadNumber() {
        return JMeterContextService.getContext().getThreadNum() + 1;
    }

    private static String threadName() {
        JMeterContext jmeter = JMeterContextService.getContext();
        return jmeter.getThread() != null
                ? jmeter.getThread().getThreadName()
                : Thread.currentThread().getName();
    }

    /** Users are named after their thread group and number: unique in a run, whatever their logins. */
    private static String groupName() {
        AbstractThreadGroup group = JMeterContextService.getContext().getThreadGroup();
        return group != null && group.getName() != null && !group.getName().isBlank() ? group.getName() : threadName();
    }
}
