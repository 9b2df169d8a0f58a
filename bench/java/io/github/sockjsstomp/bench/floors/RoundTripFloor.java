package io.github.sockjsstomp.bench.floors;

import com.sun.management.OperatingSystemMXBean;
import io.github.sockjsstomp.client.wiring.FloorLanes;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.tomcat.websocket.WsWebSocketContainer;

/**
 * The floor of a STOMP echo round trip for each I/O model, without JMeter or Spring: how much CPU the JVM
 * spends per round trip when {@code threads} threads each send a SEND and wait for its MESSAGE on their own
 * plain WebSocket session, unthrottled.
 *
 * <ul>
 * <li>{@code tomcat}: Tomcat's WebSocket client, as the plugin uses it (our fixed I/O group): the sender writes,
 *     an I/O thread reads the reply and wakes the sender.
 * <li>{@code tomcat-own}: the same on Tomcat's own I/O group (a cached pool: a poller thread reads and hands the
 *     reply to a second thread, which wakes the sender).
 * <li>{@code blocking}: a blocking socket read and written on the sending thread (the incumbent plugin's model),
 *     with WebSocket framing written here for this measurement only.
 * </ul>
 *
 * <p>Usage: {@code RoundTripFloor tomcat|tomcat-own|blocking PORT THREADS WARMUP_S WINDOW_S}; prints one line
 * {@code mode=.. round_trips=.. cpu_us_per_round_trip=.. per_s=..} for the window. Bench code, never shipped.
 */
public final class RoundTripFloor {

    static final String CONNECT = "CONNECT\naccept-version:1.2\nhost:localhost\nlogin:floor-%d\nheart-beat:0,0\n\n\0";
    static final String SUBSCRIBE = "SUBSCRIBE\nid:0\ndestination:/user/queue/echo\n\n\0";
    static final String SEND = "SEND\ndestination:/app/echo\ncontent-type:application/json\n\n"
            + "{\"id\":\"%d-%d\",\"seq\":1,\"user\":\"floor-%d\",\"text\":\"hello\"}\0";

    private RoundTripFloor() {}

    interface Connection {

        void send(String frame) throws Exception;

        /** The next text message. */
        String receive() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
        long windowNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[4]));
        URI uri = URI.create("ws://127.0.0.1:" + port + "/stomp-ws");
        List<WsWebSocketContainer> containers = containers(mode.equals("tomcat"));
        LongAdder roundTrips = new LongAdder();
        long start = System.nanoTime();
        long end = start + warmupNanos + windowNanos;
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int number = t;
            Thread worker = new Thread(
                    () -> {
                        try {
                            Connection connection = mode.startsWith("tomcat")
                                    ? tomcat(containers.get(number % containers.size()), uri)
                                    : blocking(port);
                            connection.send(String.format(CONNECT, number));
                            expect(connection.receive(), "CONNECTED");
                            connection.send(SUBSCRIBE);
                            for (long n = 0; System.nanoTime() < end; n++) {
                                connection.send(String.format(SEND, number, n, number));
                                expect(connection.receive(), "MESSAGE");
                                roundTrips.increment();
                            }
                        } catch (Exception e) {
                            e.printStackTrace();
                        } finally {
                            done.countDown();
                        }
                    },
                    "floor-" + t);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        TimeUnit.NANOSECONDS.sleep(warmupNanos);
        long cpu0 = os.getProcessCpuTime();
        long trips0 = roundTrips.sum();
        long t0 = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(windowNanos);
        long cpu1 = os.getProcessCpuTime();
        long trips1 = roundTrips.sum();
        long t1 = System.nanoTime();
        long trips = trips1 - trips0;
        System.out.printf(
                "mode=%s round_trips=%d cpu_us_per_round_trip=%.1f per_s=%.0f%n",
                mode, trips, (cpu1 - cpu0) / 1000.0 / Math.max(1, trips), trips / ((t1 - t0) / 1e9));
        done.await(30, TimeUnit.SECONDS);
        System.exit(0);
    }

    /**
     * As the plugin does: one container per I/O lane, connections spread over them; on the plugin's I/O lanes, or
     * with {@code onOurLanes} false on Tomcat's own I/O group.
     */
    static List<WsWebSocketContainer> containers(boolean onOurLanes) {
        return FloorLanes.containers(onOurLanes);
    }

    static void expect(String frame, String command) {
        if (!frame.startsWith(command)) {
            throw new IllegalStateException("expected " + command + ", got " + frame);
        }
    }

    static Connection tomcat(WsWebSocketContainer container, URI uri) throws Exception {
        SynchronousQueue<String> inbox = new SynchronousQueue<>();
        Endpoint endpoint = new Endpoint() {
            @Override
            public void onOpen(Session session, EndpointConfig config) {
                session.addMessageHandler(String.class, new WholeText(message -> {
                    try {
                        inbox.put(message);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
        };
        Session session = container.connectToServer(
                endpoint, ClientEndpointConfig.Builder.create().build(), uri);
        return new Connection() {
            @Override
            public void send(String frame) throws IOException {
                session.getBasicRemote().sendText(frame);
            }

            @Override
            public String receive() throws InterruptedException {
                return inbox.take();
            }
        };
    }

    static Connection blocking(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        OutputStream out = socket.getOutputStream();
        InputStream in = new BufferedInputStream(socket.getInputStream(), 8192);
        byte[] key = new byte[16];
        ThreadLocalRandom.current().nextBytes(key);
        out.write(("GET /stomp-ws HTTP/1.1\r\nHost: 127.0.0.1:" + port
                        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
                        + "\r\nSec-WebSocket-Version: 13\r\n"
                        + "Sec-WebSocket-Protocol: v12.stomp\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        int matched = 0;
        StringBuilder head = new StringBuilder();
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("handshake");
            }
            head.append((char) b);
            matched = (b == '\r' || b == '\n') && "\r\n\r\n".charAt(matched) == b ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + head);
        }
        return new BlockingConnection(out, in);
    }

    /** Masked text frames written and read whole on the calling thread: the incumbent plugin's model. */
    private static final class BlockingConnection implements Connection {

        private final OutputStream out;
        private final InputStream in;
        private final byte[] header = new byte[14];

        BlockingConnection(OutputStream out, InputStream in) {
            this.out = out;
            this.in = in;
        }

        @Override
        public void send(String frame) throws IOException {
            byte[] payload = frame.getBytes(StandardCharsets.UTF_8);
            int length = payload.length;
            int p = 0;
            header[p++] = (byte) 0x81;
            if (length < 126) {
                header[p++] = (byte) (0x80 | length);
            } else {
                header[p++] = (byte) (0x80 | 126);
                header[p++] = (byte) (length >> 8);
                header[p++] = (byte) length;
            }
            int mask = ThreadLocalRandom.current().nextInt();
            byte[] frameBytes = new byte[p + 4 + length];
            System.arraycopy(header, 0, frameBytes, 0, p);
            for (int i = 0; i < 4; i++) {
                frameBytes[p + i] = (byte) (mask >> (24 - 8 * i));
            }
            for (int i = 0; i < length; i++) {
                frameBytes[p + 4 + i] = (byte) (payload[i] ^ frameBytes[p + (i & 3)]);
            }
            out.write(frameBytes);
            out.flush();
        }

        @Override
        public String receive() throws IOException {
            int b0 = read();
            int length = read() & 0x7F;
            if (length == 126) {
                length = (read() << 8) | read();
            } else if (length == 127) {
                throw new IOException("frame too large for this benchmark");
            }
            byte[] payload = in.readNBytes(length);
            if ((b0 & 0x0F) != 1 || (b0 & 0x80) == 0) {
                throw new IOException("expected one whole text frame, opcode " + (b0 & 0x0F));
            }
            return new String(payload, StandardCharsets.UTF_8);
        }

        private int read() throws IOException {
            int b = in.read();
            if (b < 0) {
                throw new EOFException();
            }
            return b;
        }
    }
}
