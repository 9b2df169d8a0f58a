package io.github.sockjsstomp.serverside;

import java.io.IOException;
import java.util.List;

/** RabbitMQ's management API: one GET of {@code /api/overview} per poll ({@link RabbitOverview}). */
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
        return RabbitOverview.figures(answer.body());
    }

    @Override
    public SourceSpec spec() {
        return spec;
    }
}
