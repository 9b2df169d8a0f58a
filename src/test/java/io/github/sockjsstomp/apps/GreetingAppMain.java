package io.github.sockjsstomp.apps;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The getting-started app ({@link GreetingApp}, as published: plain WebSocket, the guide's pause) as a JVM of its
 * own, for benchmarks that read the server's memory apart from the client's (bench/server_memory.py). Binds
 * 127.0.0.1 on a free port and runs until the JVM is stopped (SIGTERM closes the app through Boot's shutdown hook).
 *
 * <p>Options: {@code --port-file PATH} (the bound port is written there once listening), {@code --sockjs} (the older
 * guide's {@code .withSockJS()}), {@code --delay-millis N} (the controller's pause, default the guide's 1000).
 * Test code only.
 */
public final class GreetingAppMain {

    private GreetingAppMain() {}

    public static void main(String[] args) throws IOException {
        GreetingApp app = start(args);
        if (app != null) {
            System.out.println("GreetingApp listening on " + app.baseUrl() + GreetingApp.ENDPOINT);
        }
    }

    /** Starts the app as {@link #main} does; null for {@code --help}. */
    static GreetingApp start(String[] args) throws IOException {
        Path portFile = null;
        boolean sockJs = false;
        long delayMillis = GreetingApp.GUIDE_DELAY_MILLIS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port-file" -> portFile = Path.of(value(args, ++i));
                case "--sockjs" -> sockJs = true;
                case "--delay-millis" -> delayMillis = Long.parseLong(value(args, ++i));
                case "-h", "--help" -> {
                    System.out.println(
                            "Usage: GreetingAppMain [--port-file PATH] [--sockjs] [--delay-millis N (default 1000)]");
                    return null;
                }
                default ->
                    throw new IllegalArgumentException("Unknown argument: " + args[i]
                            + " (usage: [--port-file PATH] [--sockjs] [--delay-millis N])");
            }
        }
        GreetingApp app = GreetingApp.start(sockJs, delayMillis);
        if (portFile != null) {
            // Written whole then moved: a reader polling the file never sees half a number.
            Path partial = portFile.resolveSibling(portFile.getFileName() + ".partial");
            Files.writeString(partial, Integer.toString(app.port()), StandardCharsets.US_ASCII);
            Files.move(partial, portFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return app;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
