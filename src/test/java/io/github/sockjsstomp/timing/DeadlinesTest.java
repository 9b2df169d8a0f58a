package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DeadlinesTest {

    private final MessageIds ids = new MessageIds("mdead00-");
    private final Deadlines deadlines = new Deadlines();
    private final List<String> taken = new ArrayList<>();
    private final long start = System.nanoTime();

    /** A message sent {@code sentMillis} after the start, with a reply timeout of {@code timeoutMillis}. */
    private MessageTiming sent(String name, long sentMillis, long timeoutMillis) {
        MessageTiming entry = new MessageTiming(
                TestMessages.outgoing("alice", ids.next() + "-" + name),
                "/app/echo",
                false,
                0,
                start + TimeUnit.MILLISECONDS.toNanos(sentMillis),
                TestMessages.options(timeoutMillis, 1, false),
                record -> {},
                new SenderBook());
        deadlines.add(entry, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        return entry;
    }

    private void takeExpired(long atMillis) {
        deadlines.takeExpired(start + TimeUnit.MILLISECONDS.toNanos(atMillis), m -> taken.add(name(m)));
    }

    private static String name(MessageTiming entry) {
        return entry.msgId().substring(entry.msgId().lastIndexOf('-') + 1);
    }

    @Test
    void messagesOfOneTimeoutExpireInSendOrderEachOnceAtItsDeadline() {
        sent("a", 0, 1000);
        sent("b", 10, 1000);
        sent("c", 20, 1000);

        takeExpired(999);
        assertThat(taken).isEmpty();
        takeExpired(1010);
        assertThat(taken).containsExactly("a", "b");
        takeExpired(5000);
        takeExpired(6000);
        assertThat(taken).containsExactly("a", "b", "c");
    }

    @Test
    void aShorterTimeoutExpiresBeforeALongerOneSentEarlier() {
        sent("long", 0, 5000);
        sent("short", 10, 100);

        takeExpired(200);
        assertThat(taken).containsExactly("short");
        takeExpired(5000);
        assertThat(taken).containsExactly("short", "long");
    }

    @Test
    void takeAllTakesEveryMessageWhateverItsDeadlineOnce() {
        sent("a", 0, 5000);
        sent("b", 0, 100);
        deadlines.takeAll(m -> taken.add(name(m)));
        takeExpired(60_000);
        deadlines.takeAll(m -> taken.add(name(m)));
        assertThat(taken).containsExactlyInAnyOrder("a", "b");
    }
}
