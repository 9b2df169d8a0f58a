package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import io.github.sockjsstomp.client.message.SubscribeHeaders;
import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.client.user.UserBehaviour;
import io.github.sockjsstomp.client.user.VirtualUser;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.client.wiring.SharedStompClients;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import io.github.sockjsstomp.threadusers.ThreadUsers;
import io.github.sockjsstomp.timing.Books;
import io.github.sockjsstomp.timing.Run;
import io.github.sockjsstomp.timing.SendMode;
import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.UserTiming;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;
import org.apache.jmeter.samplers.SampleResult;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A JMeter thread's users as a send sampler hands them to its senders: real users, timings and a run's books, nothing
 * mocked, so a test sees what a sender decides (rows, the books, connects). Their server is gone ({@link #unreachable}:
 * a port nothing listens on), or it is the demo server's plain WebSocket endpoint and they are connected to it
 * ({@link #connectedTo}). The sampler's side is this class ({@link SendingSampler}).
 */
final class TestThread implements SendingSampler, AutoCloseable {

    final Run run;
    final ThreadUsers users;
    final List<UserTiming> timings;
    /** What {@link #message} reads: the plan's message, or an exception naming a bad parameter. */
    RuntimeException unreadable;

    private TestThread(int port, String endpoint, int userCount, SendMode mode) {
        run = Run.join(0, 0, started -> {});
        SharedStompClients shared = SharedStompClients.get(ClientSettings.defaults());
        List<VirtualUser> made = new ArrayList<>();
        for (int number = 1; number <= userCount; number++) {
            UserSettings settings = new UserSettings(
                    "user #" + number,
                    1,
                    number,
                    UserSettings.Credentials.NONE,
                    new UserSettings.Server("http", "127.0.0.1", port, endpoint, Transport.RAW),
                    WebLogin.NONE,
                    new UserSettings.ConnectOptions(Map.of(), 0, 2_000));
            made.add(new VirtualUser(
                    shared, settings, UserBehaviour.PLAIN, new TransportProbe(shared.httpClient(), 2_000)));
        }
        users = new ThreadUsers(made, List.of(), SubscribeHeaders.NONE, 0, 1, run.capacity());
        TimingOptions options =
                new TimingOptions(1_000, 1, mode, "message-id", Pattern.compile("\"id\":\"([^\"]+)\""), true, false);
        timings = users.timing().attach("send", options, TimingSink.NONE, run.tracker());
    }

    /** Users whose server is gone: each connect is refused. */
    static TestThread unreachable(int userCount, SendMode mode) throws IOException {
        return new TestThread(closedPort(), "/ws", userCount, mode);
    }

    /** Users connected to the demo server on {@code port} (its raw endpoint, no login steps), each once. */
    static TestThread connectedTo(int port, int userCount, SendMode mode) throws InterruptedException {
        TestThread thread = new TestThread(port, "/stomp-ws", userCount, mode);
        for (int user = 0; user < userCount; user++) {
            SampleResult failed = thread.users.connects().ensureConnected(user, "connect");
            if (failed != null) {
                thread.close();
                throw new IllegalStateException("user " + user + " did not connect: " + failed.getResponseMessage());
            }
        }
        return thread;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The server refuses a frame of user {@code user} with an ERROR that names no message of ours. */
    void refused(int user, String words) {
        timings.get(user).onRefusal(new StompHeaders(), new byte[0], words);
    }

    Books books() {
        return run.books();
    }

    @Override
    public ThreadUsers users() {
        return users;
    }

    @Override
    public List<UserTiming> timings() {
        return timings;
    }

    @Override
    public MessageParts message(JavaSamplerContext context) {
        if (unreadable != null) {
            throw unreadable;
        }
        return new MessageParts(
                Template.parse("/app/echo", Template.DESTINATION),
                Template.parse("{\"id\":\"{{msgId}}\"}", Template.PAYLOAD),
                Map.of());
    }

    @Override
    public boolean describesRequests() {
        return false;
    }

    @Override
    public void describeRequest(SampleResult result, OutgoingMessage sent) {
        result.setSentBytes(sent.payload().length);
    }

    @Override
    public boolean noticeIfNoneAnswered(String label, UserTiming timing) {
        return false;
    }

    @Override
    public void close() {
        users.close();
        run.leave();
    }
}
