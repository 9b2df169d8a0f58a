package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.PluginVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
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
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timing log: CSV records written by a thread of its own, so senders and I/O threads only enqueue on a
 * lock-free queue and never wake anyone: the writer looks every {@value #IDLE_MILLIS} ms. The queue is
 * unbounded on purpose: dropping a record would break the books, and a writer that falls behind shows up as
 * heap, which JMeter users watch anyway. A file that fails (a full disk) is said at once, through the run, and
 * its records from then on are counted as unwritten. One instance per file and run, opened by the {@link Run} (the run's
 * id is a column); records are flushed after every batch and on {@link #close()}.
 */
public final class TimingLog implements TimingSink, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TimingLog.class);
    private static final int BATCH = 8192;
    /**
     * The writer's wake-up period: a file does not need records sooner, and at 10 wake-ups a second the writer
     * costs a fraction of a wake-up per message at any rate that matters (at 2 ms it was 0.24 per message at
     * 2,000 messages/s).
     */
    private static final long IDLE_MILLIS = 100;

    private final Path path;
    private final String run;
    private final String engineAndVersion;
    private final ConcurrentLinkedQueue<TimingRecord> queue = new ConcurrentLinkedQueue<>();
    private final OutputStream out;
    private final Thread writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong afterClose = new AtomicLong();
    /** Records that could not be written because the file failed (a full disk): counted, never silent. */
    private final AtomicLong unwritten = new AtomicLong();

    private final Consumer<String> onFailure;
    private volatile IOException failure;
    /** Written with the first batch, so a disk that is full from the start fails like one that fills up. */
    private boolean headerPending;
    /** Records between their check of {@link #closing} and their enqueue: close waits for them. */
    private final AtomicInteger entering = new AtomicInteger();

    private volatile boolean closing;

    /**
     * Opens the file, appending to an existing log of the same format.
     *
     * @param run the run's id, written in every record
     * @param engine the JMeter engine's name, written in every record
     * @param onFailure told once, in words, when the file cannot be written any more
     * @throws IOException if it cannot be created, or an existing file has another header
     */
    TimingLog(Path path, String run, String engine, Consumer<String> onFailure) throws IOException {
        this.path = path;
        this.run = run;
        this.onFailure = onFailure;
        this.engineAndVersion = TimingRecord.trailer(engine, PluginVersion.VERSION);
        boolean fresh = !Files.exists(path) || Files.size(path) == 0;
        if (!fresh) {
            checkHeader(path);
        }
        Path parent = path.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        this.headerPending = fresh;
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
    String run() {
        return run;
    }

    long written() {
        return written.get();
    }

    /** Records offered after close began: counted, not written. */
    long late() {
        return afterClose.get();
    }

    /** Records that could not be written because the file failed (a full disk, say). */
    public long unwritten() {
        return unwritten.get();
    }

    private void drainLoop() {
        List<TimingRecord> batch = new ArrayList<>(BATCH);
        StringBuilder text = new StringBuilder(BATCH * 96);
        while (!closing) {
            boolean full = false;
            if (drainBatch(batch)) {
                full = batch.size() == BATCH;
                writeOrCount(batch, text);
            }
            if (!full) {
                // Behind (a full batch): write on at once; otherwise what came meanwhile waits for the next look.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS));
            }
        }
    }

    /** Writes the batch; once the file has failed, counts it as unwritten instead (the queue must not grow). */
    private void writeOrCount(List<TimingRecord> batch, StringBuilder text) {
        if (failure == null) {
            try {
                writeBatch(batch, text);
                return;
            } catch (IOException e) {
                failure = e;
                log.error("Timing log {} cannot be written", path, e);
                onFailure.accept("Timing log " + path + " cannot be written (" + e.getMessage() + "): its records "
                        + "from now on are counted as unwritten, not written");
            }
        }
        unwritten.addAndGet(batch.size());
        batch.clear();
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
        if (headerPending) {
            text.append(TimingRecord.HEADER).append('\n');
        }
        for (TimingRecord record : batch) {
            record.appendCsv(text, run, engineAndVersion);
        }
        // Encoded in one call (all-ASCII text is one array copy), not char by char through a Writer's encoder: the
        // writer thread's second cost after formatting. The stream is unbuffered, so each batch is one write.
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        synchronized (out) {
            out.write(bytes);
        }
        headerPending = false;
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
        List<TimingRecord> rest = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        while (drainBatch(rest)) {
            writeOrCount(rest, text);
        }
        try {
            synchronized (out) {
                if (headerPending && failure == null) {
                    out.write((TimingRecord.HEADER + "\n").getBytes(StandardCharsets.UTF_8));
                }
                out.close();
            }
        } catch (IOException e) {
            log.error("Closing timing log {} failed", path, e);
        }
        log.info(
                "Timing log {} closed: {} records written{}{}",
                path,
                written.get(),
                unwritten.get() == 0 ? "" : ", " + unwritten.get() + " NOT written (the file failed)",
                afterClose.get() == 0 ? "" : ", " + afterClose.get() + " arrived after close and were not written");
    }

    private static void checkHeader(Path path) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String header = reader.readLine();
            if (TimingRecord.HEADER_V1.equals(header)
                    || TimingRecord.HEADER_V2.equals(header)
                    || TimingRecord.HEADER_V3.equals(header)
                    || TimingRecord.HEADER_V4.equals(header)) {
                throw new IOException("timing log " + path + " was written by an older version ("
                        + (header.split(",").length) + " columns); move it away or choose another file");
            }
            if (!TimingRecord.HEADER.equals(header)) {
                throw new IOException("timing log " + path + " exists with another header ('" + header
                        + "'); expected '" + TimingRecord.HEADER + "'");
            }
        }
    }

    /** Records queued for the writer now (the queue's size: a walk of it, so asked once a step, not per record). */
    public int queued() {
        return queue.size();
    }

    @Override
    public String toString() {
        return "TimingLog[" + path + ", written " + written.get() + ", queued " + queue.size() + "]";
    }
}
