package io.github.sockjsstomp.serverside;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The server-figures file: CSV, {@value #HEADER}, one row per figure per poll, appended to an existing file of
 * the same header (as the timing log is). Written and flushed by the poller after each poll: a few rows a second.
 */
final class ServerFiguresLog implements AutoCloseable {

    static final String HEADER = "epoch_ms,source,metric,value";

    private final Path path;
    private final BufferedWriter out;
    private boolean closed;

    private ServerFiguresLog(Path path, BufferedWriter out) {
        this.path = path;
        this.out = out;
    }

    /** @throws IOException if it cannot be created, or an existing file has another header */
    static ServerFiguresLog open(Path path) throws IOException {
        boolean fresh = !Files.exists(path) || Files.size(path) == 0;
        if (!fresh) {
            try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                String header = in.readLine();
                if (!HEADER.equals(header)) {
                    throw new IOException(path + " exists with another header ('" + header + "', expected '" + HEADER
                            + "'): give another serverFiguresLog or move it away");
                }
            }
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        BufferedWriter out = Files.newBufferedWriter(
                path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (fresh) {
            out.write(HEADER);
            out.write('\n');
            out.flush();
        }
        return new ServerFiguresLog(path, out);
    }

    /** One poll of one source; flushed, so a run that dies keeps what was polled. */
    synchronized void write(long epochMillis, String source, List<Figure> figures) throws IOException {
        if (closed || figures.isEmpty()) {
            return;
        }
        for (Figure figure : figures) {
            out.write(Long.toString(epochMillis));
            out.write(',');
            out.write(source);
            out.write(',');
            out.write(figure.metric());
            out.write(',');
            out.write(number(figure.value()));
            out.write('\n');
        }
        out.flush();
    }

    /** Plain decimal: no exponent, no thousands separator, a dot, no trailing zeros; whole numbers without ".0". */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    Path path() {
        return path;
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
    }
}
