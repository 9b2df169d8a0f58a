package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.client.message.Template;
import java.util.Arrays;
import java.util.List;

/** Destination values: one, or a comma-separated list, each of which may name its virtual user. */
final class Destinations {

    private Destinations() {}

    static List<Template> parse(String text) {
        return Arrays.stream(text.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(d -> Template.parse(d, Template.DESTINATION))
                .toList();
    }

    static Template parseOne(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("it is empty; it is required");
        }
        return Template.parse(text.trim(), Template.DESTINATION);
    }
}
