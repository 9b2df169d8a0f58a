package io.github.sockjsstomp.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The plugin's one ObjectMapper, for all the JSON it reads and writes: SockJS's frames (the shared clients' codec),
 * SockJS's {@code /info} answer (the transport probe), a CSRF endpoint's answer, the warm-up peer's frames.
 *
 * <p>One for the JVM: a mapper with the caches it builds on its first read weighs more than a held session, and
 * Spring's own codec would build one per SockJS client through a builder that probes JMeter's class loader for
 * optional modules. Built on first use, never in a sampler's constructor or static initialiser (JMeter's GUI runs
 * those to list the samplers). Its configuration is fixed here, at build time: an ObjectMapper is thread-safe once
 * configured, so no caller may change it.
 */
public final class Json {

    private Json() {}

    public static ObjectMapper mapper() {
        return Holder.MAPPER;
    }

    private static final class Holder {
        private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    }
}
