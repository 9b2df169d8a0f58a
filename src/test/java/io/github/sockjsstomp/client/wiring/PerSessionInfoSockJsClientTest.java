package io.github.sockjsstomp.client.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import org.springframework.web.socket.sockjs.client.InfoReceiver;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.Transport;
import org.springframework.web.socket.sockjs.client.TransportRequest;
import org.springframework.web.socket.sockjs.transport.TransportType;

class PerSessionInfoSockJsClientTest {

    private static final URI SERVER = URI.create("http://127.0.0.1:8080/ws");
    private static final String INFO =
            "{\"websocket\":true,\"cookie_needed\":true,\"origins\":[\"*:*\"],\"entropy\":1}";

    /** A transport that never completes: only what happens before it, /info, matters here. */
    private static final Transport PENDING = new Transport() {
        @Override
        public List<TransportType> getTransportTypes() {
            return List.of(TransportType.WEBSOCKET);
        }

        @Override
        public CompletableFuture<WebSocketSession> connectAsync(TransportRequest request, WebSocketHandler handler) {
            return new CompletableFuture<>();
        }
    };

    private final List<URI> asked = new CopyOnWriteArrayList<>();
    private final InfoReceiver receiver = (URI url, HttpHeaders headers) -> {
        asked.add(url);
        return INFO;
    };

    private void connectTwice(SockJsClient client) {
        client.setInfoReceiver(receiver);
        WebSocketHandler handler = new TextWebSocketHandler();
        client.execute(handler, new WebSocketHttpHeaders(), SERVER);
        client.execute(handler, new WebSocketHttpHeaders(), SERVER);
    }

    @Test
    void springsClientAsksInfoOnceForTheWholeJvm() {
        connectTwice(new SockJsClient(List.of(PENDING)));
        assertThat(asked).hasSize(1);
    }

    @Test
    void everyConnectAsksInfoItselfEvenWhileAnotherAnswerIsCached() {
        connectTwice(new PerSessionInfoSockJsClient(List.of(PENDING)));
        assertThat(asked).hasSize(2);
        assertThat(asked).allSatisfy(url -> {
            assertThat(url.getPath()).isEqualTo("/ws/info");
            assertThat(url.getQuery()).isNull();
            // The fragment is the cache key; HTTP clients never send it.
            assertThat(url.getFragment()).isNotBlank();
        });
        assertThat(asked.get(0).getFragment()).isNotEqualTo(asked.get(1).getFragment());
    }

    @Test
    void forgettingDropsTheAnswersOfFinishedConnects() {
        PerSessionInfoSockJsClient client = new PerSessionInfoSockJsClient(List.of(PENDING));
        connectTwice(client);
        client.clearServerInfoCache();
        connectTwice(client);
        assertThat(asked).hasSize(4);
    }
}
