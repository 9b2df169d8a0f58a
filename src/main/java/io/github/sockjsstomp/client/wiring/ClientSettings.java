package io.github.sockjsstomp.client.wiring;

/**
 * Settings of the objects shared by every virtual user of the JVM. They are fixed by the first user that
 * asks for {@link SharedStompClients}: they size thread pools and per-session buffers.
 *
 * @param connectThreads threads that run WebSocket handshakes (bounds concurrent connects)
 * @param heartbeatThreads threads of the STOMP heart-beat scheduler
 * @param maxTextMessageChars the largest SockJS frame accepted (SockJS frames arrive whole); Tomcat allocates
 *     a buffer of this size for every SockJS WebSocket session. Plain WebSocket sessions take any size in
 *     pieces.
 * @param maxMessageBytes the largest STOMP frame the client decodes
 * @param sendTimeLimitMillis how long a send may wait behind another write on the same session
 * @param ioBufferBytes Tomcat's per-session output buffer (and half its character encoder buffer); larger
 *     messages are written in several pieces
 * @param ioThreads I/O lanes: threads, each in a channel group of its own, doing the socket I/O of the WebSocket
 *     sessions spread over them and decoding what they receive; 0 leaves Tomcat's own shared group (see
 *     {@link IoThreads})
 */
public record ClientSettings(
        int connectThreads,
        int heartbeatThreads,
        int maxTextMessageChars,
        int maxMessageBytes,
        int sendTimeLimitMillis,
        int ioBufferBytes,
        int ioThreads) {

    public static final int DEFAULT_CONNECT_THREADS = 64;
    public static final int DEFAULT_HEARTBEAT_THREADS = 2;
    /** Enough for a 10 KB STOMP payload after SockJS's JSON escaping; 64 KiB of heap per session. */
    public static final int DEFAULT_MAX_TEXT_MESSAGE_CHARS = 32 * 1024;

    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
    public static final int DEFAULT_SEND_TIME_LIMIT_MILLIS = 10_000;
    public static final int DEFAULT_IO_BUFFER_BYTES = 1024;
    /** One per core, as the JDK's own default group: the work on them is CPU-bound (decoding, reply tracking). */
    public static final int DEFAULT_IO_THREADS =
            Math.max(2, Runtime.getRuntime().availableProcessors());

    public ClientSettings {
        requirePositive("connectThreads", connectThreads);
        requirePositive("heartbeatThreads", heartbeatThreads);
        requirePositive("maxTextMessageChars", maxTextMessageChars);
        requirePositive("maxMessageBytes", maxMessageBytes);
        requirePositive("sendTimeLimitMillis", sendTimeLimitMillis);
        requirePositive("ioBufferBytes", ioBufferBytes);
        if (ioThreads < 0) {
            throw new IllegalArgumentException("ioThreads must be 0 or more, was " + ioThreads);
        }
    }

    public static ClientSettings defaults() {
        return new ClientSettings(
                DEFAULT_CONNECT_THREADS,
                DEFAULT_HEARTBEAT_THREADS,
                DEFAULT_MAX_TEXT_MESSAGE_CHARS,
                DEFAULT_MAX_MESSAGE_BYTES,
                DEFAULT_SEND_TIME_LIMIT_MILLIS,
                DEFAULT_IO_BUFFER_BYTES,
                DEFAULT_IO_THREADS);
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
