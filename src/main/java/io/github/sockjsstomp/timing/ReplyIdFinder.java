package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.message.IncomingMessage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

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

    /**
     * A {@code replyIdPattern} value: a regex with a group around the id, or null when empty.
     *
     * @throws IllegalArgumentException saying why it cannot be used
     */
    public static Pattern pattern(String regex) {
        if (regex.isBlank()) {
            return null;
        }
        try {
            Pattern pattern = Pattern.compile(regex);
            if (pattern.matcher("").groupCount() < 1) {
                throw new IllegalArgumentException("needs a capturing group (...) around the id");
            }
            return pattern;
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
        }
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
