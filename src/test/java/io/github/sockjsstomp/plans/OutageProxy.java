package io.github.sockjsstomp.plans;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on loopback in front of a server that can go away as a stopped broker does: {@link #down()}
 * resets every connection it carries and stops listening, so new connects are refused; {@link #up()} listens
 * on the same port again and carries new connections as before.
 */
final class OutageProxy implements AutoCloseable {

    private final int targetPort;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket listener;

    OutageProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = listen(LoopbackPorts.forRestart());
        this.port = listener.getLocalPort();
    }

    int port() {
        return port;
    }

    /** Connections refused from now on, and every one carried now reset (RST). */
    synchronized void down() throws IOException {
        listener.close();
        open.forEach(OutageProxy::reset);
    }

    /** Listening again on the same port. */
    synchronized void up() throws IOException {
        if (listener.isClosed()) {
            listener = listen(port);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        down();
    }

    private ServerSocket listen(int onPort) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 500);
        Thread acceptor = new Thread(() -> acceptLoop(socket), "outage-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return socket;
    }

    private void acceptLoop(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Socket server;
                try {
                    server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                } catch (IOException e) {
                    reset(client);
                    continue;
                }
                open.add(client);
                open.add(server);
                pump(client, server, "outage-proxy-up");
                pump(server, client, "outage-proxy-down");
            } catch (IOException e) {
                // closed: down() or close()
            }
        }
    }

    private void pump(Socket from, Socket to, String name) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // one side went away: so does the other
                    } finally {
                        reset(from);
                        reset(to);
                        open.remove(from);
                        open.remove(to);
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void reset(Socket socket) {
        try {
            if (!socket.isClosed()) {
                socket.setSoLinger(true, 0);
                socket.close();
            }
        } catch (IOException e) {
            // already gone
        }
    }
}
