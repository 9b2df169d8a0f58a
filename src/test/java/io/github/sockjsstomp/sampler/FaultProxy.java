package io.github.sockjsstomp.sampler;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on loopback between the samplers and a plain-WebSocket server that injects faults into the
 * connections it carries: it stalls them, holds back what the server sends (heart-beats stop arriving while
 * the connection stays open), writes a frame of its own to the client between two of the server's WebSocket
 * frames (a malformed STOMP frame, a close with a status code), or resets every connection as a killed server
 * would. New connections are carried normally, so the samplers can reconnect.
 */
final class FaultProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    /** Client writes a stall holds back now. */
    private int heldClientWrites;

    FaultProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Connections carried now. */
    int connections() {
        return (int) links.stream().filter(link -> !link.client.isClosed()).count();
    }

    /** Nothing passes either way on the connections open now until {@link #resume()}. */
    void stall() {
        links.forEach(link -> link.stalled = true);
    }

    /** The server's frames on the connections open now are held until {@link #resume()}. */
    void holdBackServer() {
        links.forEach(link -> link.serverHeldBack = true);
    }

    void resume() {
        synchronized (gate) {
            links.forEach(link -> {
                link.stalled = false;
                link.serverHeldBack = false;
            });
            gate.notifyAll();
        }
    }

    /** Writes this WebSocket frame to every client now connected, between two of the server's frames. */
    void inject(byte[] frame) throws IOException {
        for (Link link : links) {
            if (link.upgraded && !link.client.isClosed()) {
                synchronized (link.toClient) {
                    link.toClient.write(frame);
                    link.toClient.flush();
                }
            }
        }
    }

    /** Resets every connection (RST, as the kernel does for a killed server). */
    void resetAll() {
        for (Link link : links) {
            link.reset();
        }
    }

    static byte[] textFrame(String text) {
        return frame(0x81, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] closeFrame(int status, String reason) {
        byte[] why = reason.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[2 + why.length];
        payload[0] = (byte) (status >> 8);
        payload[1] = (byte) status;
        System.arraycopy(why, 0, payload, 2, why.length);
        return frame(0x88, payload);
    }

    private static byte[] frame(int firstByte, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(firstByte);
        if (payload.length < 126) {
            out.write(payload.length);
        } else {
            out.write(126);
            out.write(payload.length >> 8);
            out.write(payload.length);
        }
        out.writeBytes(payload);
        return out.toByteArray();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                Link link = new Link(client, server);
                links.add(link);
                link.start();
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    /** Blocks the calling pump while a fault holds its direction of this connection. */
    private void pass(Link link, boolean fromServer) throws InterruptedException {
        synchronized (gate) {
            boolean held = false;
            while ((link.stalled || (fromServer && link.serverHeldBack)) && !link.client.isClosed()) {
                if (!held && !fromServer) {
                    held = true;
                    heldClientWrites++;
                }
                gate.wait(50);
            }
            if (held) {
                heldClientWrites--;
            }
        }
    }

    /** Waits (bounded) until a stall holds back something the client wrote. */
    void awaitHeldClientWrite() throws InterruptedException {
        synchronized (gate) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (heldClientWrites == 0 && System.nanoTime() < deadline) {
                gate.wait(50);
            }
            if (heldClientWrites == 0) {
                throw new IllegalStateException("the client wrote nothing while stalled");
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        resume();
        links.forEach(Link::reset);
    }

    private final class Link {
        final Socket client;
        final Socket server;
        final OutputStream toClient;
        volatile boolean upgraded;
        volatile boolean stalled;
        volatile boolean serverHeldBack;

        Link(Socket client, Socket server) throws IOException {
            this.client = client;
            this.server = server;
            this.toClient = client.getOutputStream();
        }

        void start() {
            Thread up = new Thread(this::clientToServer, "fault-proxy-up");
            Thread down = new Thread(this::serverToClient, "fault-proxy-down");
            up.setDaemon(true);
            down.setDaemon(true);
            up.start();
            down.start();
        }

        private void clientToServer() {
            byte[] buffer = new byte[8192];
            try (InputStream in = client.getInputStream();
                    OutputStream out = server.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    pass(this, false);
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the other side went away: so does this one
            } finally {
                reset();
            }
        }

        /** Whole frames only, so that an injected frame never lands inside one of the server's. */
        private void serverToClient() {
            try (DataInputStream in = new DataInputStream(server.getInputStream())) {
                byte[] head = readHttpHead(in);
                synchronized (toClient) {
                    toClient.write(head);
                    toClient.flush();
                }
                upgraded = true;
                while (true) {
                    byte[] frame = readFrame(in);
                    pass(this, true);
                    synchronized (toClient) {
                        toClient.write(frame);
                        toClient.flush();
                    }
                }
            } catch (IOException | InterruptedException e) {
                // closed
            } finally {
                reset();
            }
        }

        void reset() {
            for (Socket s : new Socket[] {client, server}) {
                try {
                    if (!s.isClosed()) {
                        s.setSoLinger(true, 0);
                        s.close();
                    }
                } catch (IOException e) {
                    // already gone
                }
            }
        }
    }

    private static byte[] readHttpHead(DataInputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.readUnsignedByte();
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toByteArray();
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        int b0 = in.readUnsignedByte();
        int b1 = in.readUnsignedByte();
        frame.write(b0);
        frame.write(b1);
        long length = b1 & 0x7F;
        if (length == 126) {
            int extended = in.readUnsignedShort();
            frame.write(extended >> 8);
            frame.write(extended);
            length = extended;
        } else if (length == 127) {
            length = in.readLong();
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) (length >> shift));
            }
        }
        int maskBytes = (b1 & 0x80) != 0 ? 4 : 0;
        byte[] rest = new byte[Math.toIntExact(maskBytes + length)];
        in.readFully(rest);
        frame.writeBytes(rest);
        return frame.toByteArray();
    }
}
