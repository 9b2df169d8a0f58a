package io.github.sockjsstomp.apps;

import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** A Spring Boot app started by {@link BootApps} on a free loopback port: its port, address and close. */
abstract class BootApp implements AutoCloseable {

    final ConfigurableApplicationContext context;
    private final int port;

    BootApp(ConfigurableApplicationContext context) {
        this.context = context;
        this.port =
                ((ServletWebServerApplicationContext) context).getWebServer().getPort();
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>} (no trailing slash). */
    public String baseUrl() {
        return "http://" + BootApps.HOST + ":" + port;
    }

    @Override
    public void close() {
        context.close();
    }
}
