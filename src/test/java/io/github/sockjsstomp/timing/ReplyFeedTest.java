package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplyFeedTest {

    private static TimingRecord record(String id) {
        return new TimingRecord(
                1_000_000,
                TimingRecord.Outcome.ANSWERED,
                id,
                1500,
                "alice",
                "alice",
                "/app/echo",
                10,
                "",
                SendMode.FIRE_AND_FORGET,
                "alice #1",
                "alice #1",
                -1);
    }

    @Test
    void closedItKeepsNothing() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        feed.offer(record("a"));
        assertThat(feed.take(1)).isNull();
    }

    @Test
    void openItHandsOverInOrderAndCountsWhatDidNotFit() throws Exception {
        ReplyFeed feed = new ReplyFeed(2);
        feed.open();
        feed.offer(record("a"));
        feed.offer(record("b"));
        feed.offer(record("c")); // full: dropped, counted
        assertThat(feed.take(1).msgId()).isEqualTo("a");
        assertThat(feed.close()).as("c dropped, b left in the feed").isEqualTo(new ReplyFeed.Unsampled(1, 1));
        feed.offer(record("d"));
        assertThat(feed.take(1)).isNull();
    }

    @Test
    void itStaysOpenUntilItsLastTakerCloses() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        feed.open();
        feed.open();
        feed.offer(record("a"));
        assertThat(feed.close()).isEqualTo(new ReplyFeed.Unsampled(0, 0));
        assertThat(feed.take(1).msgId()).isEqualTo("a");
        assertThat(feed.close()).isEqualTo(new ReplyFeed.Unsampled(0, 0));
    }
}
