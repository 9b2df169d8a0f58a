package io.github.sockjsstomp.client.message;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The headers a user adds to every SUBSCRIBE ({@code subscribeHeaders}): brokers read their options there
 * (RabbitMQ's {@code x-queue-name}, {@code durable}, {@code prefetch-count}; Artemis' {@code consumer-window-size},
 * {@code durable-subscription-name}, {@code subscription-type}). Written {@code name:value;name2:value2} as every
 * header list ({@link HeaderList}); each value may name its virtual user with a destination's placeholders
 * ({@link Template#DESTINATION}: {@code x-queue-name:bench.{{userNumber}}}), parsed once and rendered per user.
 *
 * <p>{@code destination} is the subscription's own (the subscribed destination), so it is refused here;
 * {@code id} replaces the one the session would give; {@code ack} must be one of STOMP's modes ({@link AckMode}), and
 * the samplers check it says what their own {@code ack} parameter says (that parameter is what makes the client
 * send the ACKs: see {@link #ackMode}).
 */
public final class SubscribeHeaders {

    public static final String DESTINATION = "destination";
    public static final String ID = "id";
    public static final String ACK = "ack";

    public static final SubscribeHeaders NONE = new SubscribeHeaders("", Map.of());

    private final String source;
    private final Map<String, Template> headers;

    private SubscribeHeaders(String source, Map<String, Template> headers) {
        this.source = source;
        this.headers = headers;
    }

    /**
     * @throws IllegalArgumentException quoting a pair without its ':', a header this client sets itself
     *     ({@code destination}), an acknowledgement mode it does not follow, or a placeholder a destination may
     *     not use
     */
    public static SubscribeHeaders parse(String text) {
        Map<String, String> pairs = HeaderList.parse(text);
        if (pairs.isEmpty()) {
            return NONE;
        }
        Map<String, Template> headers = new LinkedHashMap<>();
        pairs.forEach((name, value) -> {
            check(name, value);
            try {
                headers.put(name, Template.parse(value, Template.DESTINATION));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
            }
        });
        return new SubscribeHeaders(text, Collections.unmodifiableMap(headers));
    }

    private static void check(String name, String value) {
        if (name.equals(DESTINATION)) {
            throw new IllegalArgumentException(
                    "destination is not a subscribe header here: each SUBSCRIBE's destination is subscribeTo's");
        }
        if (name.equals(ACK)) {
            try {
                AckMode.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "ack:" + value
                                + " is no STOMP acknowledgement mode; expected auto, client or client-individual",
                        e);
            }
        }
    }

    /** The text as it was given, placeholders and all. */
    public String source() {
        return source;
    }

    public boolean isEmpty() {
        return headers.isEmpty();
    }

    /** The {@code ack} header written, null if none is. */
    public AckMode ackMode() {
        Template ack = headers.get(ACK);
        return ack == null ? null : AckMode.parse(ack.render((name, out) -> {}));
    }

    /** Whether the user names the subscription: then one SUBSCRIBE per session, or two would share the id. */
    public boolean hasId() {
        return headers.containsKey(ID);
    }

    /** The headers for one user's SUBSCRIBE, in the order written, each value rendered with its placeholders. */
    public Map<String, String> render(Template.Values values) {
        if (headers.isEmpty()) {
            return Map.of();
        }
        Map<String, String> rendered = new LinkedHashMap<>();
        headers.forEach((name, value) -> rendered.put(name, value.render(values)));
        return rendered;
    }

    @Override
    public String toString() {
        return "SubscribeHeaders[" + source + "]";
    }
}
