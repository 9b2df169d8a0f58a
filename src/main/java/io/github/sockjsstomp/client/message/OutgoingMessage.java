package io.github.sockjsstomp.client.message;

import io.github.sockjsstomp.client.UserSettings;
import java.nio.charset.StandardCharsets;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A SEND as it was built for one virtual user, before it is written.
 *
 * @param seq the user's message sequence number, from 1
 * @param msgId the id stamped into the message, or null for an untimed one
 */
public record OutgoingMessage(
        UserSettings sender,
        String destination,
        StompHeaders headers,
        long seq,
        String msgId,
        byte[] payload,
        long sentAtMillis) {

    /** The SEND as a sample's request text (the send sampler's row, a replies sampler's): destination, headers, body. */
    public String requestText() {
        return "SEND " + destination + "\n" + HeaderList.describe(headers) + "\n"
                + new String(payload, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "OutgoingMessage[" + sender.name() + " -> " + destination + ", seq=" + seq + ", id=" + msgId + ", "
                + payload.length + " bytes]";
    }
}
