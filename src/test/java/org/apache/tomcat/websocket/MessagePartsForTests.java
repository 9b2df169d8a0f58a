package org.apache.tomcat.websocket;

import java.nio.ByteBuffer;

/** Tomcat's {@link MessagePart}s, whose constructor is package-private, for unit tests of a transformation. */
public final class MessagePartsForTests {

    private static final byte OPCODE_TEXT = 1;
    private static final byte OPCODE_CONTINUATION = 0;

    private MessagePartsForTests() {}

    /** A text message's part as Tomcat's writer hands it over: the first with the text opcode, the rest continuing. */
    public static MessagePart text(boolean first, boolean fin, byte[] payload) {
        return new MessagePart(
                fin, 0, first ? OPCODE_TEXT : OPCODE_CONTINUATION, ByteBuffer.wrap(payload), null, null, 0);
    }
}
