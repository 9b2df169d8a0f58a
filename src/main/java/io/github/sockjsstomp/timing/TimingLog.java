package io.github.sockjsstomp.timing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timing log: CSV records written by a thread of its own, so senders and I/O threads only enqueue. The
 * queue is unbounded on purpose: dropping a record would break the books, and a writer that falls behind
 * shows up as heap, which JMeter users watch anyway. One instance per file per JVM; records are flushed
 * after every batch and on {@link #close()}.
 */
public final class TimingLog implements TimingSink, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TimingLog.class);
    private static final Map<Path, TimingLog> OPEN = new HashMap<>();
    private static final int BATCH = 8192;

    private final Path path;
    private final LinkedBlockingQueue<TimingRecord> queue = new LinkedBlockingQueue<>();
    private final Writer out;
    private final Thread writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong afterClose = new AtomicLong();
    private volatile boolean closing;

    private TimingLog(Path path) throws IOException {
        this.path = path;
        boolean fresh = !Files.exists(path) || Files.size(path) == 0;
        if (!fresh) {
            checkHeader(path);
        }
        Path parent = path.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = new OutputStreamWriter(Files.newOutputStream(path, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND), StandardCharsets.UTF_8);
        if (fresh) {
            out.write(TimingRecord.HEADER + "\n");
            out.flush();
        }
        this.writer = new Thread(this::drainLoop, "stomp-timing-log-" + path.getFileName());
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * The log for this file, opened on first use: appends to an existing log of the same format.
     *
     * @throws IOException if it cannot be created, or an existing file has another header
     */
    public static TimingLog open(Path path) throws IOException {
        Path key = path.toAbsolutePath().normalize();
        synchronized (OPEN) {
            TimingLog existing = OPEN.get(key);
            if (existing != null && !existing.closing) {
                return existing;
            }
            TimingLog created = new TimingLog(key);
            OPEN.put(key, created);
            return created;
        }
    }

    /** Writes out and closes every open log: the end of a test, or of the JVM. */
    public static void closeAll() {
        List<TimingLog> logs;
        synchronized (OPEN) {
            logs = new ArrayList<>(OPEN.values());
            OPEN.clear();
        }
        for (TimingLog timingLog : logs) {
            timingLog.close();
        }
    }

    @Override
    public void record(TimingRecord record) {
        if (closing) {
            afterClose.incrementAndGet();
            return;
        }
        queue.add(record);
    }

    public long written() {
        return written.get();
    }

    private void drainLoop() {
        List<TimingRecord> batch = new ArrayList<>(BATCH);
        StringBuilder text = new StringBuilder(BATCH * 96);
        try {
            while (!closing || !queue.isEmpty()) {
                TimingRecord first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                writeBatch(batch, text);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.error("Timing log {} failed; records from now on are lost", path, e);
        }
    }

    private void writeBatch(List<TimingRecord> batch, StringBuilder text) throws IOException {
        text.setLength(0);
        for (TimingRecord record : batch) {
            record.appendCsv(text);
        }
        synchronized (out) {
            out.append(text);
            out.flush();
        }
        written.addAndGet(batch.size());
        batch.clear();
    }

    /** Lets the writer finish the queue, then closes the file. Records arriving after this are counted. */
    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        try {
            writer.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            List<TimingRecord> rest = new ArrayList<>();
            queue.drainTo(rest);
            if (!rest.isEmpty()) {
                writeBatch(rest, new StringBuilder());
            }
            synchronized (out) {
                out.close();
            }
        } catch (IOException e) {
            log.error("Closing timing log {} failed", path, e);
        }
        log.info("Timing log {} closed: {} records written{}", path, written.get(),
                afterClose.get() == 0 ? "" : ", " + afterClose.get() + " arrived after close and were not written");
    }

    private static void checkHeader(Path path) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String header = reader.readLine();
            if (!TimingRecord.HEADER.equals(header)) {
                throw new IOException("timing log " + path + " exists with another header ('" + header
                        + "'); expected '" + TimingRecord.HEADER + "'");
            }
        }
    }

    @Override
    public String toString() {
        return "TimingLog[" + path + ", written " + written.get() + ", queued " + queue.size() + "]";
    }
}
