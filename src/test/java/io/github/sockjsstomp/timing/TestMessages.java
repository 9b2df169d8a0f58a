package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.WebLogin;
import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import java.util.Map;
import org.springframework.messaging.simp.stomp.StompHeaders;

/** Messages for the timing tests: a virtual user named {@code <login> #1} with that login. */
final class TestMessages {

    private TestMessages() {}

    static UserSettings user(String login) {
        return new UserSettings(
                login + " #1",
                1,
                1,
                new UserSettings.Credentials(login, ""),
                new UserSettings.Server("http", "localhost", 8080, "/ws", Transport.WEBSOCKET),
                WebLogin.NONE,
                new UserSettings.ConnectOptions(Map.of(), 0, 1000));
    }

    static OutgoingMessage outgoing(String sender, String msgId) {
        return new OutgoingMessage(
                user(sender),
                "/app/echo",
                new StompHeaders(),
                1,
                msgId,
                new byte[] {1, 2, 3},
                System.currentTimeMillis());
    }

    static IncomingMessage incoming(String receiver, int bytes) {
        return incoming(receiver, new StompHeaders(), new byte[bytes], System.nanoTime());
    }

    static IncomingMessage incoming(String receiver, StompHeaders headers, byte[] body, long receivedNanos) {
        return new IncomingMessage(user(receiver), "/user/queue/echo", headers, body, receivedNanos);
    }

    static TimingOptions options(long replyTimeoutMillis, int replies, boolean awaited) {
        return new TimingOptions(
                replyTimeoutMillis,
                replies,
                awaited ? SendMode.AWAIT_REPLY : SendMode.FIRE_AND_FORGET,
                TimingOptions.DEFAULT_ID_HEADER,
                null,
                false,
                false);
    }

    /** Registers a message as UserTiming does, with a sender's answered count of its own. */
    static MessageTiming register(
            ReplyTracker tracker, OutgoingMessage message, TimingOptions options, TimingSink sink) {
        return tracker.register(message, options, sink, new SenderBook());
    }
}
