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
 * A server that failed to start fails the class's tests with its cause; one that never started is not closed.
 */
public final class DemoServerExtension implements BeforeAllCallback, AfterAllCallback {

    private DemoServer server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = DemoServer.start(0);
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
        return "DemoServerExtension[" + (server == null ? "not running" : DemoServer.HOST + ":" + server.port()) + "]";
    }
}
