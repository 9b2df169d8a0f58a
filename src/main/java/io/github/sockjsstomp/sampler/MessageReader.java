package io.github.sockjsstomp.sampler;

import static io.github.sockjsstomp.sampler.StompParameters.DESTINATION;
import static io.github.sockjsstomp.sampler.StompParameters.PAYLOAD;
import static io.github.sockjsstomp.sampler.StompParameters.SEND_HEADERS;

import io.github.sockjsstomp.client.message.Template;
import io.github.sockjsstomp.loops.MessageParts;
import java.util.Map;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerContext;

/** Reads a message's parts from a sampler's context, parsing a text again only when it changed. */
final class MessageReader {

    private final Parsed<Template> destinations = new Parsed<>(DESTINATION);
    private final Parsed<Template> payloads = new Parsed<>(PAYLOAD);
    private final Parsed<Map<String, String>> headers = new Parsed<>(SEND_HEADERS);

    /** Checks the values setupTest sees, so a bad constant is a ConfigError before the first message. */
    void check(ParameterReader params) {
        destinations.check(params);
        payloads.check(params);
        headers.check(params);
    }

    /** @throws IllegalArgumentException naming the parameter and the value that cannot be read */
    MessageParts read(JavaSamplerContext context) {
        return new MessageParts(destinations.of(context), payloads.of(context), headers.of(context));
    }
}
