package org.apache.tomcat.websocket;

import java.nio.ByteBuffer;

/**
 * The one door into Tomcat's WebSocket package the plugin needs: a {@link Transformation} of its own (the client's
 * permessage-deflate, {@code io.github.sockjsstomp.client.deflate.SessionDeflate}) hands Tomcat the frames it
 * compressed as {@link MessagePart}s, whose constructor is package-private. Nothing else lives here.
 */
public final class TransformedParts {

    private TransformedParts() {}

    /**
     * The frame that replaces {@code original}, one for one: its handlers (the writer waits on the end handler), its
     * opcode and time limit, with another payload and reserved bits.
     */
    public static MessagePart withPayload(MessagePart original, int rsv, ByteBuffer payload) {
        return new MessagePart(
                original.isFin(),
                rsv,
                original.getOpCode(),
                payload,
                original.getIntermediateHandler(),
                original.getEndHandler(),
                original.getBlockingWriteTimeoutExpiry());
    }
}
