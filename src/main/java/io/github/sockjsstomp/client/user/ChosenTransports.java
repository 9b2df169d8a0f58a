package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says in the log, once per endpoint and transport, what {@code transport=auto} chose and why: thousands of
 * users share an endpoint, and one line is what a user reading jmeter.log needs. Bounded by the endpoints a
 * JVM connects to.
 */
final class ChosenTransports {

    /** Routed to jmeter.log by jmeter-config/log4j2.xml, as the books line is. */
    private static final Logger log = LoggerFactory.getLogger("io.github.sockjsstomp.Transport");

    private static final Map<URI, Transport> SAID = new ConcurrentHashMap<>();

    private ChosenTransports() {}

    static void sayOnce(URI endpoint, TransportProbe.Result found) {
        if (SAID.put(endpoint, found.transport()) != found.transport()) {
            log.info("transport auto: {} uses {} ({})", endpoint, found.transport(), found.message());
        }
    }
}
