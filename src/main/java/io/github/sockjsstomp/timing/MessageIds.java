package io.github.sockjsstomp.timing;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Message ids unique across generators: a random prefix per JVM, then a counter ({@code m4k2x9a-17}). The
 * prefix is letters and digits only, so it survives JSON, HTML and SockJS escaping, and a reply whose body
 * merely copies the id (Spring's greeting sample) can be found by scanning for the prefix.
 */
public final class MessageIds {

    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final String prefix;
    private final byte[] prefixBytes;
    private final AtomicLong counter = new AtomicLong();

    public MessageIds(String prefix) {
        if (!prefix.matches("[a-z][a-z0-9]*-")) {
            throw new IllegalArgumentException("id prefix must be letters and digits then '-', was '" + prefix + "'");
        }
        this.prefix = prefix;
        this.prefixBytes = prefix.getBytes(StandardCharsets.US_ASCII);
    }

    public static MessageIds random() {
        SecureRandom random = new SecureRandom();
        StringBuilder prefix = new StringBuilder("m");
        for (int i = 0; i < 6; i++) {
            prefix.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return new MessageIds(prefix.append('-').toString());
    }

    public String prefix() {
        return prefix;
    }

    public String next() {
        return prefix + counter.incrementAndGet();
    }

    public boolean isOurs(String id) {
        return id != null && id.startsWith(prefix);
    }

    /** The counter of one of our ids ({@code m4k2x9a-17}: 17); -1 if the id is not ours or has no number. */
    public long sequenceOf(String id) {
        if (!isOurs(id) || id.length() == prefix.length() || id.length() - prefix.length() > 18) {
            return -1;
        }
        long seq = 0;
        for (int i = prefix.length(); i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            seq = seq * 10 + (c - '0');
        }
        return seq;
    }

    /** The first id of this JVM found in the bytes (a prefix followed by at least one digit), or null. */
    public String findIn(byte[] body) {
        int from = 0;
        while (true) {
            int at = indexOf(body, prefixBytes, from);
            if (at < 0) {
                return null;
            }
            int end = at + prefixBytes.length;
            while (end < body.length && body[end] >= '0' && body[end] <= '9') {
                end++;
            }
            if (end > at + prefixBytes.length) {
                return new String(body, at, end - at, StandardCharsets.US_ASCII);
            }
            from = at + 1;
        }
    }

    static int indexOf(byte[] haystack, byte[] needle, int from) {
        int last = haystack.length - needle.length;
        byte first = needle[0];
        outer:
        for (int i = from; i <= last; i++) {
            if (haystack[i] != first) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public String toString() {
        return "MessageIds[" + prefix + ", issued " + counter.get() + "]";
    }
}
