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
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timing log: CSV records written by a thread of its own, so senders and I/O threads only enqueue on a
 * lock-free queue and never wake anyone: the writer looks every {@value #IDLE_MILLIS} ms. The queue is
 * unbounded on purpose: dropping a record would break the books, and a writer that falls behind shows up as
 * heap, which JMeter users watch anyway. One instance per file and run, opened by the {@link Run} (the run's
 * id is a column); records are flushed after every batch and on {@link #close()}.
 */
public final class TimingLog implements TimingSink, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TimingLog.class);
    private static final int BATCH = 8192;
    private static final long IDLE_MILLIS = 2;

    private final Path path;
    private final String run;
    private final String engineAndVersion;
    private final ConcurrentLinkedQueue<TimingRecord> queue = new ConcurrentLinkedQueue<>();
    private final Writer out;
    private final Thread writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong afterClose = new AtomicLong();
    /** Records between their check of {@link #closing} and their enqueue: close waits for them. */
    private final AtomicInteger entering = new AtomicInteger();
    private volatile boolean closing;

    /**
     * Opens the file, appending to an existing log of the same format.
     *
     * @param run the run's id, written in every record
     * @param engine the JMeter engine's name, written in every record
     * @throws IOException if it cannot be created, or an existing file has another header
     */
    TimingLog(Path path, String run, String engine) throws IOException {
        this.path = path;
        this.run = run;
        this.engineAndVersion = TimingRecord.trailer(engine, pluginVersion());
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

    /** Never blocks: a record is either queued, and then written by close at the latest, or counted as late. */
    @Override
    public void record(TimingRecord record) {
        entering.incrementAndGet();
        try {
            if (closing) {
                afterClose.incrementAndGet();
                return;
            }
            queue.add(record);
        } finally {
            entering.decrementAndGet();
        }
    }

    /** The run's id in this log's records. */
    public String run() {
        return run;
    }

    /** Whether close has begun: records from now on are counted, not written. */
    public boolean isClosing() {
        return closing;
    }

    public long written() {
        return written.get();
    }

    /** Records offered after close began: counted, not written. */
    public long late() {
        return afterClose.get();
    }

    private void drainLoop() {
        List<TimingRecord> batch = new ArrayList<>(BATCH);
        StringBuilder text = new StringBuilder(BATCH * 96);
        try {
            while (!closing) {
                if (!drainBatch(batch)) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
                    continue;
                }
                writeBatch(batch, text);
            }
        } catch (IOException e) {
            log.error("Timing log {} failed; records from now on are lost", path, e);
        }
    }

    private boolean drainBatch(List<TimingRecord> batch) {
        TimingRecord record;
        while (batch.size() < BATCH && (record = queue.poll()) != null) {
            batch.add(record);
        }
        return !batch.isEmpty();
    }

    private void writeBatch(List<TimingRecord> batch, StringBuilder text) throws IOException {
        text.setLength(0);
        for (TimingRecord record : batch) {
            record.appendCsv(text, run, engineAndVersion);
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
        LockSupport.unpark(writer);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // A record that saw closing false is queued once it leaves record(): wait for those, then take all.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (entering.get() > 0 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        try {
            List<TimingRecord> rest = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            while (drainBatch(rest)) {
                writeBatch(rest, text);
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
            if (TimingRecord.HEADER_V1.equals(header) || TimingRecord.HEADER_V2.equals(header)) {
                throw new IOException("timing log " + path + " was written by an older version (" + (header.split(
                        ",").length) + " columns); move it away or choose another file");
            }
            if (!TimingRecord.HEADER.equals(header)) {
                throw new IOException("timing log " + path + " exists with another header ('" + header
                        + "'); expected '" + TimingRecord.HEADER + "'");
            }
        }
    }

    /** The plugin's version from its jar's manifest; "dev" when run from classes (tests in the IDE). */
    static String pluginVersion() {
        String version = TimingLog.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? "dev" : version;
    }

    @Override
    public String toString() {
        return "TimingLog[" + path + ", written " + written.get() + ", queued " + queue.size() + "]";
    }
}
