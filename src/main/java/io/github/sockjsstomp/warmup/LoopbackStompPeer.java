package io.github.sockjsstomp.warmup;

import io.github.sockjsstomp.client.Json;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A STOMP echo peer on 127.0.0.1, only for the generator's warm-up ({@code WarmUp}): it runs our own clients'
 * send and receive paths (Tomcat's frame writer and reader, Spring's STOMP and SockJS codecs) in this JVM
 * without a byte to the server under test. It speaks just what those clients use: SockJS's {@code /info}, the
 * WebSocket handshake, masked client frames, STOMP CONNECT, SUBSCRIBE and SEND. Each SEND comes back as a
 * MESSAGE on the connection's first subscription with the same body and {@code x-*} headers (as the demo
 * server's echo), but every fourth without them, so the reply-id scan over the body is warmed too.
 * One blocking thread per connection: the warm-up opens one.
 */
final class LoopbackStompPeer implements AutoCloseable {

    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final String SOCKJS_INFO =
            "{\"entropy\":1,\"origins\":[\"*:*\"],\"cookie_needed\":false," + "\"websocket\":true}";

    private final ServerSocket server;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicLong echoed = new AtomicLong();

    LoopbackStompPeer() throws IOException {
        server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "stomp-warm-up-peer");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                open.add(socket);
                Thread connection = new Thread(() -> serve(socket), "stomp-warm-up-peer-" + socket.getPort());
                connection.setDaemon(true);
                connection.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            String head = readHead(in);
            String path = head.substring(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
            String key = header(head, "sec-websocket-key");
            if (key == null) {
                // SockJS's /info; a new connection per request is all the warm-up needs
                byte[] body = SOCKJS_INFO.getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: "
                                + body.length + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                return;
            }
            out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Accept: " + accept(key) + "\r\n" + subprotocol(head) + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            new StompEcho(out, path.endsWith("/websocket")).run(in);
        } catch (IOException e) {
            // the client closed, or close() did: the warm-up is over
        } finally {
            open.remove(socket);
        }
    }

    /** One WebSocket connection's STOMP conversation. */
    private final class StompEcho {
        private final OutputStream out;
        private final boolean sockJs;
        private String subscriptionId;
        private String subscribedTo;
        private long sends;

        StompEcho(OutputStream out, boolean sockJs) {
            this.out = out;
            this.sockJs = sockJs;
        }

        void run(InputStream in) throws IOException {
            if (sockJs) {
                writeFrame(1, "o");
            }
            ByteArrayOutputStream message = new ByteArrayOutputStream();
            while (true) {
                int b0 = readByte(in);
                int b1 = readByte(in);
                long length = b1 & 0x7F;
                if (length == 126) {
                    length = (readByte(in) << 8) | readByte(in);
                } else if (length == 127) {
                    length = 0;
                    for (int i = 0; i < 8; i++) {
                        length = (length << 8) | readByte(in);
                    }
                }
                byte[] mask = (b1 & 0x80) != 0 ? in.readNBytes(4) : new byte[4];
                byte[] payload = in.readNBytes((int) length);
                for (int i = 0; i < payload.length; i++) {
                    payload[i] ^= mask[i & 3];
                }
                int opcode = b0 & 0x0F;
                if (opcode == 8) {
                    writeFrame(8, "");
                    return;
                }
                if (opcode == 9) {
                    writeFrame(10, new String(payload, StandardCharsets.UTF_8));
                } else if (opcode <= 2) {
                    message.write(payload);
                    if ((b0 & 0x80) != 0) {
                        received(message.toString(StandardCharsets.UTF_8));
                        message.reset();
                    }
                }
            }
        }

        private void received(String text) throws IOException {
            if (!sockJs) {
                stomp(text);
                return;
            }
            for (String frame : Json.mapper().readValue(text, String[].class)) {
                stomp(frame);
            }
        }

        private void stomp(String frame) throws IOException {
            int headEnd = frame.indexOf("\n\n");
            if (headEnd < 0) {
                return; // a heart-beat
            }
            String[] lines = frame.substring(0, headEnd).split("\n");
            String command = lines[0].trim();
            String body = frame.substring(headEnd + 2, Math.max(headEnd + 2, frame.lastIndexOf('\0')));
            switch (command) {
                case "CONNECT", "STOMP" -> reply("CONNECTED\nversion:1.2\nheart-beat:" + heartBeats(lines) + "\n\n\0");
                case "SUBSCRIBE" -> {
                    if (subscriptionId == null) {
                        subscriptionId = value(lines, "id");
                        subscribedTo = value(lines, "destination");
                    }
                }
                case "SEND" -> echo(lines, body);
                default -> {
                    // UNSUBSCRIBE, DISCONNECT: the client closes the socket next
                }
            }
        }

        private void echo(String[] lines, String body) throws IOException {
            if (subscriptionId == null) {
                return;
            }
            StringBuilder reply = new StringBuilder(128 + body.length())
                    .append("MESSAGE\ndestination:")
                    .append(subscribedTo)
                    .append("\nsubscription:")
                    .append(subscriptionId)
                    .append("\nmessage-id:")
                    .append(++sends)
                    .append('\n');
            if (sends % 4 != 0) {
                for (String line : lines) {
                    if (line.startsWith("x-") || line.startsWith("content-type:")) {
                        reply.append(line).append('\n');
                    }
                }
            }
            reply.append("content-length:")
                    .append(body.getBytes(StandardCharsets.UTF_8).length)
                    .append("\n\n")
                    .append(body)
                    .append('\0');
            reply(reply.toString());
            echoed.incrementAndGet();
        }

        private void reply(String stompFrame) throws IOException {
            writeFrame(1, sockJs ? "a" + Json.mapper().writeValueAsString(new String[] {stompFrame}) : stompFrame);
        }

        /** An unmasked server frame. */
        private void writeFrame(int opcode, String text) throws IOException {
            byte[] payload = text.getBytes(StandardCharsets.UTF_8);
            out.write(0x80 | opcode);
            if (payload.length < 126) {
                out.write(payload.length);
            } else if (payload.length < 65536) {
                out.write(126);
                out.write(payload.length >> 8);
                out.write(payload.length & 0xFF);
            } else {
                out.write(127);
                for (int shift = 56; shift >= 0; shift -= 8) {
                    out.write((int) ((long) payload.length >> shift) & 0xFF);
                }
            }
            out.write(payload);
            out.flush();
        }
    }

    /**
     * The client's heart-beats agreed as asked, so its sessions run the code they run against a server that
     * has heart-beats on (a branch the JIT never saw taken is compiled out, and recompiled when it is). The
     * peer never sends one: messages flow all along, and the warm-up is over long before any read check.
     */
    private static String heartBeats(String[] lines) {
        String[] asked = value(lines, "heart-beat").split(",");
        return asked.length == 2 ? asked[1].trim() + "," + asked[0].trim() : "0,0";
    }

    private static String value(String[] lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1);
            }
        }
        return "";
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            head.append((char) readByte(in));
        }
        return head.toString();
    }

    private static int readByte(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException();
        }
        return b;
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /** Spring's STOMP client asks for v12.stomp and friends: accept the first it offers. */
    private static String subprotocol(String head) {
        String offered = header(head, "sec-websocket-protocol");
        return offered == null ? "" : "Sec-WebSocket-Protocol: " + offered.split(",")[0].trim() + "\r\n";
    }

    private static String accept(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1")
                    .digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do: the socket is gone either way
        }
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException e) {
                // as above
            }
        }
    }

    @Override
    public String toString() {
        return "LoopbackStompPeer[127.0.0.1:" + port() + ", " + echoed.get() + " echoed]";
    }
}
