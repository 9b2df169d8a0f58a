package io.github.sockjsstomp.client.wiring;

/**
 * Tomcat's WebSocket client allocates, for every session, an input buffer (the size of the binary message
 * buffer), a binary and a text message buffer, an output buffer and a character encoder buffer (both of
 * {@code DEFAULT_BUFFER_SIZE}): at Tomcat's and our old defaults about 150 KB a session, most of a held
 * session's heap. These sizes keep those buffers of a plain WebSocket session near 10 KB.
 */
final class TomcatBuffers {

    /** Tomcat's name for the output and encoder buffer size, read once when its WebSocket classes load. */
    static final String IO_BUFFER_PROPERTY = "org.apache.tomcat.websocket.DEFAULT_BUFFER_SIZE";
    /** A plain WebSocket session takes text frames in pieces of this many characters. */
    static final int PARTIAL_MESSAGE_CHARS = 1024;
    /**
     * The handshake response is read through it in as many reads as it takes (a 64-byte buffer passes every
     * test), then it is the session's input buffer: one read takes up to this many bytes of frames.
     */
    static final int HANDSHAKE_BUFFER_BYTES = 1024;

    private TomcatBuffers() {}

    /**
     * Sets Tomcat's output buffer size unless the user set it (-D): it only takes effect if no Tomcat
     * WebSocket class has loaded yet, which holds inside JMeter, where the plugin is the only user.
     */
    static void setIoBufferBytes(int bytes) {
        if (System.getProperty(IO_BUFFER_PROPERTY) == null) {
            System.setProperty(IO_BUFFER_PROPERTY, Integer.toString(bytes));
        }
    }
}
