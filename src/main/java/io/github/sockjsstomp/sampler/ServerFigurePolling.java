package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.SERVER_FIGURES;
import static io.github.sockjsstomp.sampler.StompParameters.SERVER_FIGURES_LOG;
import static io.github.sockjsstomp.sampler.StompParameters.SERVER_FIGURES_MILLIS;

import io.github.sockjsstomp.samples.EngineName;
import io.github.sockjsstomp.serverside.ServerFigures;
import io.github.sockjsstomp.serverside.SourceSpec;
import io.github.sockjsstomp.timing.Run;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The samplers' side of the server's figures: reads {@code serverFigures}, {@code serverFiguresMillis} and
 * {@code serverFiguresLog} and has the run poll them. Each JMeter engine polls for itself into a file of its own
 * (named as its timing log is): a remote engine's pid is a process on its machine, and a server polled by several
 * engines only answers a few more requests a second.
 */
final class ServerFigurePolling {

    static final List<Parameter<?>> PARAMETERS = List.of(SERVER_FIGURES, SERVER_FIGURES_MILLIS, SERVER_FIGURES_LOG);

    private ServerFigurePolling() {}

    /** Starts the run's polling if this sampler names sources and no other sampler started it first. */
    static void start(ParameterReader params, Run run) {
        List<SourceSpec> sources = params.read(SERVER_FIGURES);
        long intervalMillis = params.read(SERVER_FIGURES_MILLIS);
        String file = params.read(SERVER_FIGURES_LOG).trim();
        if (sources.isEmpty() || params.hasErrors()) {
            return;
        }
        if (file.isEmpty()) {
            params.error(
                    SERVER_FIGURES_LOG.name,
                    "",
                    "the server's figures need a file; give one, or serverFigures=none to poll nothing");
            return;
        }
        String engine = EngineName.current();
        ServerFigures.Settings mine =
                new ServerFigures.Settings(sources, intervalMillis, EngineName.timingLogFor(Path.of(file), engine));
        try {
            ServerFigures.Settings polled = run.pollServerFigures(mine);
            if (!polled.equals(mine)) {
                run.noticeOnce(
                        "server-figures-differ",
                        "samplers of this test name different server figures: polling " + polled.sources()
                                + " every " + polled.intervalMillis() + " ms into " + polled.file()
                                + ", the first one's; " + mine.sources() + " is left out");
            }
        } catch (IOException | RuntimeException e) {
            params.error(SERVER_FIGURES_LOG.name, file, "cannot be written: " + e.getMessage());
        }
    }
}
