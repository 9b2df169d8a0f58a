package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The drain is asked with no time to wait: each answer is decided by what it sees at once. */
class ReplyDrainTest {

    private final MessageIds ids = new MessageIds("mdrain0-");
    private final ReplyTracker tracker = new ReplyTracker(ids, new ReplyFeed(16));
    private final ReplyDrain drain = new ReplyDrain(tracker.counts());

    private MessageTiming send() {
        return TestMessages.register(
                tracker, TestMessages.outgoing("alice", ids.next()), TestMessages.options(60_000, 1, false), r -> {});
    }

    @Test
    void nothingSentIsQuiet() throws InterruptedException {
        assertThat(drain.awaitQuiet(0, 0)).isTrue();
    }

    @Test
    void aMessageAwaitingItsReplyIsNotQuietUntilItIsAnswered() throws InterruptedException {
        MessageTiming sent = send();
        assertThat(drain.awaitQuiet(0, 0)).isFalse();
        tracker.reply(sent.msgId(), TestMessages.incoming("alice", 1));
        assertThat(drain.awaitQuiet(0, 0)).isTrue();
    }

    @Test
    void aMessageEndedOtherwiseIsNotAwaited() throws InterruptedException {
        tracker.fail(send(), "SendFailed");
        send();
        tracker.abandonAll("test-ended");
        assertThat(drain.awaitQuiet(0, 0)).isTrue();
    }

    /** Copies of a broadcast may still be coming: the lull has to pass after the last answer. */
    @Test
    void quietNeedsTheLullToPassEvenWithNothingPending() throws InterruptedException {
        assertThat(drain.awaitQuiet(0, 60_000)).isFalse();
    }
}
