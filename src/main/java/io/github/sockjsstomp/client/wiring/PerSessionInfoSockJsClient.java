package io.github.sockjsstomp.client.wiring;

import java.net.URI;
import java.util.List;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.SockJsUrlInfo;
import org.springframework.web.socket.sockjs.client.Transport;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * A SockJS client that asks {@code /info} for every session, as a browser does. Spring's client caches the
 * answer per info URL for the whole JVM: only the first user would see what /info sets (a load balancer's
 * sticky cookie), and clearing the cache before a connect does not help when connects run concurrently, as
 * another user's answer can land in between. Here each connect has its own cache key: the info URL with the
 * SockJS session id as its fragment, which an HTTP client never sends, so the server sees the usual request.
 * Clearing the cache after each connect ({@link #clearServerInfoCache()}) keeps it from growing: each answer
 * was read once, by the connect that asked for it.
 */
final class PerSessionInfoSockJsClient extends SockJsClient {

    PerSessionInfoSockJsClient(List<Transport> transports) {
        super(transports);
    }

    @Override
    protected SockJsUrlInfo buildSockJsUrlInfo(URI url) {
        return new SockJsUrlInfo(url) {
            @Override
            public URI getInfoUrl() {
                return UriComponentsBuilder.fromUri(super.getInfoUrl())
                        .fragment(getSessionId())
                        .build(true)
                        .toUri();
            }
        };
    }
}
