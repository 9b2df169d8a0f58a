package io.github.sockjsstomp.plans;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a server a test stops and starts again on the same port. A port from the kernel's ephemeral range (what
 * binding port 0 gives) can be taken while the server is down: by an outgoing connection of a test running beside
 * this one, or by a client reconnecting to it (a loopback connect from port P to port P connects to itself). Below
 * that range only explicit binds take a port, so the restart finds it free.
 */
final class LoopbackPorts {

    private static final int SPAN = 10_000;

    private LoopbackPorts() {}

    /** A loopback port below the ephemeral range that is free now. */
    static int forRestart() throws IOException {
        int ephemeralStart = ephemeralStart();
        int first = Math.max(1024, ephemeralStart - SPAN);
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(first, ephemeralStart);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException taken) {
                // another one
            }
        }
        throw new IOException("no free loopback port in " + first + "-" + (ephemeralStart - 1));
    }

    /** The first port of Linux's ephemeral range (net.ipv4.ip_local_port_range), 32768 where it cannot be read. */
    private static int ephemeralStart() {
        // read as a stream: /proc says its files are empty, and Files.readString trusts that (it read "3")
        try (InputStream in = Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            String range = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
            int start = Integer.parseInt(range.split("\\s+")[0]);
            return start > 2048 ? start : 32768;
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
