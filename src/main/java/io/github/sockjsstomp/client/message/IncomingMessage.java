package io.github.sockjsstomp.client.message;

import io.github.sockjsstomp.client.UserSettings;
import java.nio.charset.StandardCharsets;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A MESSAGE as it arrived on one of a virtual user's subscriptions.
 *
 * @param receiver the virtual user whose session received it
 * @param subscription the destination the user subscribed to
 * @param receivedNanos {@link System#nanoTime()} on arrival, before any listener ran
 */
public record IncomingMessage(
        UserSettings receiver, String subscription, StompHeaders headers, byte[] payload, long receivedNanos) {

    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "IncomingMessage[" + (receiver == null ? "-" : receiver.name()) + " <- " + subscription + ", "
                + payload.length + " bytes]";
    }
}
