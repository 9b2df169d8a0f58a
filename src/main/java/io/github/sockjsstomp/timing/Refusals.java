package io.github.sockjsstomp.timing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The ERROR frames a server sent on open sessions during a run: a SEND to a destination it does not know, a
 * SUBSCRIBE it forbids. RabbitMQ answers each such frame with an ERROR and keeps the session open, so nothing
 * else shows that the server refused the messages: they would only be LOST at their deadline. Each distinct text
 * of the server's is said once, on the console where the run speaks, with the destination; the rest are counted,
 * in the live summary and at the run's end, with the messages LOST while their sender was being refused.
 */
public final class Refusals {

    /** The server's words as said: bodies can quote a whole frame (ActiveMQ does), so they are cut. */
    static final int MAX_WORDS_CHARS = 240;

    private static final int MAX_TEXTS = 20;
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");

    /** By the server's words with numbers and our ids taken out: a broker quoting each refused frame says one text. */
    private final CountedCauses byWords = new CountedCauses(MAX_TEXTS);
    /** The words each text first came with, as said. */
    private final Map<String, String> firstWords = new ConcurrentHashMap<>();

    private final LongAdder frames = new LongAdder();
    private final LongAdder lostWhileRefused = new LongAdder();
    private volatile Consumer<String> out = line -> {};

    /** Who hears a refusal the first time its words come (the run's notices: console and jmeter.log). */
    public void onFirstOfItsWords(Consumer<String> listener) {
        out = listener;
    }

    /**
     * An ERROR frame on an open session.
     *
     * @param errorText the server's words, already shortened ({@link #shorten})
     * @param destination where the refused frame went, as far as known; null if not
     * @param failed whether the frame named the message it refuses (that message is FAILED)
     */
    void refused(String errorText, String destination, boolean failed, String user) {
        frames.increment();
        String text = text(errorText);
        if (byWords.add(text)) {
            firstWords.put(text, errorText);
            out.accept("the server refused a frame with an ERROR and kept the session open: \"" + errorText + "\" ("
                    + user + (destination == null ? "" : ", " + destination) + "). "
                    + (failed
                            ? "The message it names is FAILED. "
                            : "It names no message: the messages it refuses are LOST at their deadline. ")
                    + "More ERRORs with these words are counted, the counts said at the end of the run");
        }
    }

    /** A message LOST after the server refused a frame of its sender: likely refused, not lost. */
    void lostWhileRefused() {
        lostWhileRefused.increment();
    }

    /** ERROR frames on open sessions so far. */
    public long count() {
        return frames.sum();
    }

    /** The run's end: one line per text with its count, then the LOST messages; empty when nothing was refused. */
    public List<String> endLines() {
        List<String> lines = new ArrayList<>();
        byWords.lines(text -> firstWords.getOrDefault(text, text))
                .forEach(line -> lines.add("stomp server refusals (ERROR frames): " + line));
        long lost = lostWhileRefused.sum();
        if (lost > 0) {
            lines.add("stomp: " + lost + " messages were LOST while the server was refusing their senders' frames "
                    + "with ERRORs that named no message: likely refused, not lost");
        }
        return lines;
    }

    /** What tells texts apart: the words without their numbers (ids, sequence numbers, counts). */
    static String text(String errorText) {
        return DIGITS.matcher(errorText).replaceAll("#");
    }

    /** The server's words on one line, cut to {@value #MAX_WORDS_CHARS} characters. */
    static String shorten(String errorText) {
        String oneLine = errorText.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX_WORDS_CHARS ? oneLine : oneLine.substring(0, MAX_WORDS_CHARS - 3) + "...";
    }

    @Override
    public String toString() {
        return "Refusals[" + count() + " ERROR frames, " + lostWhileRefused.sum() + " LOST while refused]";
    }
}
