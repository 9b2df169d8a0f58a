package io.github.sockjsstomp.bench.floors;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor of a recorded reply time on this machine: what a client with the shortest possible path records
 * against the wire. {@code threads} threads each hold a plain WebSocket (blocking socket, framing written here,
 * {@link RoundTripFloor#blocking}), send a SEND on an open-loop schedule and read its MESSAGE on the same thread,
 * which is already blocked in {@code read()} when the reply arrives; each message is stamped with the wall clock
 * before the write and after the read, as the timing log stamps ours. {@code bench/wire_check.py} pairs these
 * stamps with a packet capture: what such a client records beyond the wire is the operating system's (waking a
 * blocked thread on busy cores), not a generator's.
 *
 * <p>Usage: {@code WireFloor PORT THREADS PER_SECOND SECONDS OUT.csv RAMP_SECONDS} (thread t starts t x ramp /
 * threads late, as JMeter's ramp-up starts them); writes {@code msg_id,outcome,
 * sent_epoch_us,latency_us} (the timing log's names for them). Bench code, never shipped.
 */
public final class WireFloor {

    private static final String SEND = "SEND\ndestination:/app/echo\ncontent-type:application/json\n\n"
            + "{\"id\":\"%s\",\"seq\":1,\"user\":\"floor-%d\",\"text\":\"hello\"}\0";

    private WireFloor() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        double perSecond = Double.parseDouble(args[2]);
        long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
        long intervalNanos = (long) (TimeUnit.SECONDS.toNanos(1) * threads / perSecond);
        long rampNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[5]));
        AtomicLong ids = new AtomicLong();
        List<String> rows = Collections.synchronizedList(new ArrayList<>());
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int number = t + 1;
            long offset = rampNanos * t / threads; // as JMeter's ramp-up starts them: in phase when it is 0
            Thread worker =
                    new Thread(() -> run(port, number, offset, intervalNanos, endNanos, ids, rows), "floor-" + number);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[4]))) {
            out.write("msg_id,outcome,sent_epoch_us,latency_us\n");
            for (String row : rows) {
                out.write(row);
                out.write('\n');
            }
        }
        System.exit(0);
    }

    private static void run(
            int port,
            int number,
            long offsetNanos,
            long intervalNanos,
            long endNanos,
            AtomicLong ids,
            List<String> rows) {
        try {
            RoundTripFloor.Connection connection = RoundTripFloor.blocking(port);
            connection.send(String.format(RoundTripFloor.CONNECT, number));
            connection.receive();
            connection.send(RoundTripFloor.SUBSCRIBE);
            long start = System.nanoTime() + offsetNanos;
            for (long n = 0; ; n++) {
                long due = start + n * intervalNanos;
                if (due - endNanos > 0) {
                    return;
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                String id = "wirefloor-" + ids.incrementAndGet();
                long sent = micros(Instant.now());
                connection.send(String.format(SEND, id, number));
                String reply = connection.receive();
                long received = micros(Instant.now());
                if (reply.startsWith("MESSAGE") && reply.contains(id)) {
                    rows.add(id + ",ANSWERED," + sent + "," + (received - sent));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    private static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }
}
