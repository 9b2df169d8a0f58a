package io.github.sockjsstomp.client.login;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** Test double: an HTTP server on 127.0.0.1 answering as the test scripts it per path, keeping what it was asked. */
public final class FakeHttpServer implements AutoCloseable {

    /** A request as the server saw it. */
    public record Request(String method, String path, String query, Map<String, List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .findFirst()
                    .map(e -> e.getValue().get(0))
                    .orElse(null);
        }
    }

    /** An answer; {@code headers} alternate name, value. */
    public record Answer(int status, String contentType, String body, String... headers) {}

    private final HttpServer server;
    private final Map<String, Function<Request, Answer>> routes = new ConcurrentHashMap<>();
    public final List<Request> requests = new CopyOnWriteArrayList<>();

    public FakeHttpServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public FakeHttpServer route(String path, Function<Request, Answer> answer) {
        routes.put(path, answer);
        return this;
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Request request = new Request(
                exchange.getRequestMethod(),
                exchange.getRequestURI().getPath(),
                exchange.getRequestURI().getRawQuery(),
                Map.copyOf(exchange.getRequestHeaders()),
                body);
        requests.add(request);
        Function<Request, Answer> route = routes.get(request.path());
        Answer answer = route == null ? new Answer(404, "text/plain", "Not Found") : route.apply(request);
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", answer.contentType());
        for (int i = 0; i + 1 < answer.headers().length; i += 2) {
            exchange.getResponseHeaders().add(answer.headers()[i], answer.headers()[i + 1]);
        }
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
