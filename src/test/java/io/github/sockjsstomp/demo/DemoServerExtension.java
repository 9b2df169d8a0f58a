package io.github.sockjsstomp.demo;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The demo server for a test class: started on a random loopback port before its tests, closed after them. Register
 * it on a static field, and ask it for the server once the tests run:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final DemoServerExtension demo = new DemoServerExtension();
 * ... demo.port() ...
 * }</pre>
 *
 * The server starts before the class's own {@code @BeforeAll} methods (which may use it) and closes after its
 * {@code @AfterAll} methods. A server that failed to start fails the class's tests with its cause; one that never
 * started is not closed.
 */
public final class DemoServerExtension implements BeforeAllCallback, AfterAllCallback {

    /** The simple broker's heart-beats, both ways; 0: the server's default (10 s). */
    private final long heartbeatMillis;

    private DemoServer server;

    /** The demo server as it starts by default. */
    public DemoServerExtension() {
        this(0);
    }

    private DemoServerExtension(long heartbeatMillis) {
        this.heartbeatMillis = heartbeatMillis;
    }

    /**
     * The demo server whose simple broker heart-beats every {@code heartbeatMillis} both ways instead of every 10 s:
     * a client sees them missing after three of the longer of its own and these, so a test of heart-beats that stop
     * arriving, or of a step that sees them missing, sets a short one rather than wait half a minute.
     */
    public static DemoServerExtension heartbeatingEveryMillis(long heartbeatMillis) {
        if (heartbeatMillis <= 0) {
            throw new IllegalArgumentException("heartbeatMillis must be more than 0: " + heartbeatMillis);
        }
        return new DemoServerExtension(heartbeatMillis);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (heartbeatMillis == 0) {
            server = DemoServer.start(0);
            return;
        }
        // The broker reads its heart-beats from this property as it starts: set for the start alone, so that no other
        // server this JVM starts later inherits them.
        String before = System.getProperty(DemoWebSocketConfig.HEARTBEAT_MILLIS_PROPERTY);
        System.setProperty(DemoWebSocketConfig.HEARTBEAT_MILLIS_PROPERTY, Long.toString(heartbeatMillis));
        try {
            server = DemoServer.start(0);
        } finally {
            if (before == null) {
                System.clearProperty(DemoWebSocketConfig.HEARTBEAT_MILLIS_PROPERTY);
            } else {
                System.setProperty(DemoWebSocketConfig.HEARTBEAT_MILLIS_PROPERTY, before);
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The running server; only while the class's tests run. */
    public DemoServer server() {
        if (server == null) {
            throw new IllegalStateException("the demo server runs only while the test class does");
        }
        return server;
    }

    /** The server's port on {@link DemoServer#HOST}. */
    public int port() {
        return server().port();
    }

    @Override
    public String toString() {
        return "DemoServerExtension[" + (server == null ? "not running" : DemoServer.HOST + ":" + server.port())
                + (heartbeatMillis == 0 ? "" : ", heart-beats every " + heartbeatMillis + " ms") + "]";
    }
}
