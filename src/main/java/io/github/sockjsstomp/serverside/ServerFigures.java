package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own figures, polled during a run into a file of their own: one daemon thread for all sources,
 * polling each in turn every {@code intervalMillis} (the first poll at once), each request bounded ({@link
 * FigureHttp}), so a server that hangs delays its figures and never the run. A source that cannot be read is said
 * once, when it starts failing, and once when it answers again: not on every poll. Made only when the list of
 * sources is not empty: a server that exposes nothing costs nothing. Owned by the run, which closes it.
 *
 * <p>Each round begins with the generator's own row ({@link GeneratorSource}: the sessions it holds, the messages
 * it sent, its memory), so that every reading of the server comes after the counts it is divided by, in the file
 * and in what the run says at its end ({@link #costLines()}: {@link RunCosts}).
 */
public final class ServerFigures implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServerFigures.class);

    /**
     * What to poll, how often, into which file.
     *
     * @param sources at least one ({@link SourceSpec#parseList})
     */
    public record Settings(List<SourceSpec> sources, long intervalMillis, Path file) {
        public Settings {
            if (sources.isEmpty()) {
                throw new IllegalArgumentException("no sources to poll");
            }
            sources = List.copyOf(sources);
        }
    }

    private final Settings settings;
    private final ServerFiguresLog file;
    private final FigureHttp http;
    private final List<FigureSource> sources = new ArrayList<>();
    private final boolean[] failing;
    private final Consumer<String> notices;
    private final Thread thread;
    private final RunCosts costs = new RunCosts();
    private volatile boolean stopping;
    private boolean fileFailed;

    private ServerFigures(Settings settings, ServerFiguresLog file, RunCounts counts, Consumer<String> notices) {
        this.settings = settings;
        this.file = file;
        this.notices = notices;
        this.http = new FigureHttp(requestTimeoutMillis(settings.intervalMillis()));
        int cores = Runtime.getRuntime().availableProcessors();
        sources.add(new GeneratorSource(counts));
        for (SourceSpec spec : settings.sources()) {
            sources.add(
                    switch (spec.kind()) {
                        case SourceSpec.ACTUATOR -> new ActuatorSource(spec, http);
                        case SourceSpec.RABBITMQ -> new RabbitMqSource(spec, http);
                        default -> new ProcessSource(spec, SourceSpec.PROC, cores);
                    });
        }
        this.failing = new boolean[sources.size()];
        this.thread = new Thread(this::pollUntilClosed, "stomp-server-figures");
        thread.setDaemon(true);
    }

    /**
     * Opens the file and starts polling.
     *
     * @param counts the run's sessions held and messages sent, read at the start of every round
     * @param notices told, in words, when a source starts failing and when it answers again
     * @throws IOException if the file cannot be written
     */
    public static ServerFigures start(Settings settings, RunCounts counts, Consumer<String> notices)
            throws IOException {
        ServerFigures figures = new ServerFigures(settings, ServerFiguresLog.open(settings.file()), counts, notices);
        figures.thread.start();
        log.info(
                "Polling the server's figures every {} ms into {}: {}",
                settings.intervalMillis(),
                settings.file(),
                settings.sources());
        return figures;
    }

    /**
     * A request gets the poll interval, within [2 s, 10 s]: a hung server is cut off, while a busy one (a Spring
     * app's first request initializes its DispatcherServlet: more than 500 ms on a loaded machine) still answers.
     */
    static int requestTimeoutMillis(long intervalMillis) {
        return (int) Math.max(2000, Math.min(10_000, intervalMillis));
    }

    public Settings settings() {
        return settings;
    }

    private void pollUntilClosed() {
        long next = System.nanoTime();
        long interval = TimeUnit.MILLISECONDS.toNanos(settings.intervalMillis());
        while (!stopping) {
            for (int i = 0; i < sources.size() && !stopping; i++) {
                poll(i);
            }
            next += interval;
            long wait = next - System.nanoTime();
            if (wait <= 0) {
                // Behind (slow sources): the next poll now, and the schedule from here, not a burst to catch up.
                next = System.nanoTime();
                continue;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void poll(int index) {
        FigureSource source = sources.get(index);
        List<Figure> figures;
        try {
            figures = source.poll();
            if (failing[index]) {
                failing[index] = false;
                notices.accept("server figures: " + source.spec() + " answers again");
            }
        } catch (IOException | RuntimeException e) {
            if (stopping) {
                return;
            }
            if (!failing[index]) {
                failing[index] = true;
                notices.accept("server figures: " + source.spec() + " cannot be read (" + describe(e)
                        + "); its figures are left out until it answers (said again when it does)");
            }
            log.debug("server figures: {} poll failed", source.spec(), e);
            return;
        }
        long epochMillis = System.currentTimeMillis();
        // the run's figures from what was read, also when the file cannot take it
        costs.add(epochMillis, source.spec().kind(), figures);
        try {
            file.write(epochMillis, source.spec().kind(), figures);
        } catch (IOException e) {
            if (!fileFailed) {
                fileFailed = true;
                notices.accept("server figures: " + file.path() + " cannot be written (" + describe(e)
                        + "); the server's figures of this run are incomplete");
            }
        }
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** Stops polling (a request under way is cut off) and closes the file, flushed. */
    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            // Closing the client closes its connections: a request under way ends now, not at its timeout.
            http.close();
        } catch (IOException e) {
            log.debug("server figures: closing the HTTP client", e);
        }
        try {
            thread.join(2L * requestTimeoutMillis(settings.intervalMillis()) + 500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            file.close();
        } catch (IOException e) {
            notices.accept("server figures: " + file.path() + " could not be closed: " + e.getMessage());
        }
    }

    /**
     * What each session held cost the server and this JVM in memory, and each message the server in CPU, from the
     * readings of the run (docs/server-figures.md): lines for the run's end, once polling is closed.
     */
    public List<String> costLines() {
        return costs.lines(ZoneId.systemDefault());
    }

    @Override
    public String toString() {
        return "ServerFigures[" + settings.sources() + " every " + settings.intervalMillis() + " ms into "
                + settings.file() + "]";
    }
}
