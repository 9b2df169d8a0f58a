package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.IncomingMessage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the id of the message a reply answers: in a header (a server that copies {@code x-msg-id}), else
 * with the user's pattern over the body (its first group), else by scanning the body for this JVM's ids.
 */
public final class ReplyIdFinder {

    private final String idHeader;
    private final Pattern bodyPattern;
    private final MessageIds ids;

    /**
     * @param idHeader header to look in first; empty to skip
     * @param bodyPattern a regex with one capturing group, or null to scan for this JVM's ids
     */
    public ReplyIdFinder(String idHeader, Pattern bodyPattern, MessageIds ids) {
        if (bodyPattern != null && bodyPattern.matcher("").groupCount() < 1) {
            throw new IllegalArgumentException("pattern '" + bodyPattern + "' needs a capturing group for the id");
        }
        this.idHeader = idHeader == null ? "" : idHeader;
        this.bodyPattern = bodyPattern;
        this.ids = ids;
    }

    public String find(IncomingMessage message) {
        if (!idHeader.isEmpty()) {
            String fromHeader = message.headers().getFirst(idHeader);
            if (fromHeader != null && !fromHeader.isEmpty()) {
                return fromHeader;
            }
        }
        if (bodyPattern != null) {
            Matcher matcher = bodyPattern.matcher(message.payloadText());
            return matcher.find() ? matcher.group(1) : null;
        }
        return ids.findIn(message.payload());
    }
}
