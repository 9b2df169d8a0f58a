package io.github.sockjsstomp.loops;

import io.github.sockjsstomp.client.message.Template;
import java.util.Map;

/**
 * What a message is made of, read on every sample (JMeter functions and CSV data in them vary per message):
 * its destination, payload and SEND headers. Here with the loops that send it; the send sampler reads it from its
 * parameters.
 */
public record MessageParts(Template destination, Template payload, Map<String, String> headers) {}
