package io.github.sockjsstomp.client.wiring;

import java.util.List;
import org.springframework.web.client.RestOperations;
import org.springframework.web.socket.sockjs.client.RestTemplateXhrTransport;
import org.springframework.web.socket.sockjs.transport.TransportType;

/**
 * XHR streaming without Spring's fallback to XHR polling: a user who asks for xhr-streaming measures
 * xhr-streaming, or sees it fail.
 */
final class StreamingOnlyXhrTransport extends RestTemplateXhrTransport {

    StreamingOnlyXhrTransport(RestOperations restTemplate) {
        super(restTemplate);
    }

    @Override
    public List<TransportType> getTransportTypes() {
        return List.of(TransportType.XHR_STREAMING);
    }
}
