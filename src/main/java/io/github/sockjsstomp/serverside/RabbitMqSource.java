package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * RabbitMQ's management API: a GET of {@code /api/overview} ({@link RabbitOverview}) and of {@code /api/nodes}
 * ({@link RabbitNodes}) per poll.
 */
final class RabbitMqSource implements FigureSource {

    private final SourceSpec spec;
    private final FigureHttp http;

    RabbitMqSource(SourceSpec spec, FigureHttp http) {
        this.spec = spec;
        this.http = http;
    }

    @Override
    public List<Figure> poll() throws IOException {
        FigureHttp.Answer answer = http.get(spec.target() + "/api/overview");
        if (answer.status() == 401) {
            throw new IOException("HTTP 401 from " + spec + "/api/overview: give the management user in the URL, "
                    + "rabbitmq:http://user:password@host:15672");
        }
        if (answer.status() != 200) {
            throw new IOException("HTTP " + answer.status() + " from " + spec + "/api/overview");
        }
        List<Figure> figures = new ArrayList<>(RabbitOverview.figures(answer.body()));
        // the nodes' figures where the user may read them (a management user without the monitoring tag may not)
        FigureHttp.Answer nodes = http.get(spec.target() + "/api/nodes");
        if (nodes.status() == 200) {
            figures.addAll(RabbitNodes.figures(nodes.body()));
        }
        return figures;
    }

    @Override
    public SourceSpec spec() {
        return spec;
    }
}
