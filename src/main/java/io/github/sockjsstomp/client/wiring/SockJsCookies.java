package io.github.sockjsstomp.client.wiring;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Cookies that SockJS responses set go back to the user who made the request. A load balancer that pins a
 * client to one node sets its cookie on the first response it sees, SockJS's {@code /info}; Spring's SockJS
 * client never stores cookies, so the handshake that follows would land on any node. The /info request runs
 * on the connecting user's thread, inside the connect call: that thread says whose cookies these are
 * ({@link ConnectWatch}).
 */
final class SockJsCookies implements ClientHttpRequestInterceptor {

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        ClientHttpResponse response = execution.execute(request, body);
        BiConsumer<URI, List<String>> receiver = ConnectWatch.cookieReceiver();
        List<String> setCookies = response.getHeaders().get(HttpHeaders.SET_COOKIE);
        if (receiver != null && setCookies != null && !setCookies.isEmpty()) {
            receiver.accept(request.getURI(), setCookies);
        }
        return response;
    }
}
