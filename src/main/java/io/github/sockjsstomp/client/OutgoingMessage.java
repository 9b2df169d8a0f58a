package io.github.sockjsstomp.client;

import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A SEND on its way out, as the {@link StompUser#beforeSend} hook sees it: headers may still be changed.
 *
 * @param seq the user's message sequence number, from 1
 * @param msgId the id the timing layer stamped into the message, or null
 */
public record OutgoingMessage(String sender, String destination, StompHeaders headers, long seq, String msgId,
        byte[] payload, long sentAtMillis) {

    @Override
    public String toString() {
        return "OutgoingMessage[" + sender + " -> " + destination + ", seq=" + seq + ", id=" + msgId + ", "
                + payload.length + " bytes]";
    }
}
