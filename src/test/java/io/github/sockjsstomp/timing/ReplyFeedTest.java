package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.message.OutgoingMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

    private static List<String> takeAll(ReplyFeed.Taker taker) throws InterruptedException {
        List<String> ids = new ArrayList<>();
        for (ReplyFeed.Finished f = taker.take(1); f != null; f = taker.take(1)) {
            ids.add(f.record().msgId());
        }
        return ids;
    }

    @Test
    void aMessageKeepsItsSendAndReplyOnlyForATakerThatCanShowThem() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        ReplyTracker tracker = new ReplyTracker(MessageIds.random(), feed);
        ReplyFeed.Taker headless = feed.open(false);
        OutgoingMessage first = TestMessages.outgoing("alice", tracker.ids().next());
        tracker.register(
                first, "/app/echo.{{userNumber}}", TestMessages.options(60_000, 1, false), r -> {}, new SenderBook());
        tracker.reply(first.msgId(), TestMessages.incoming("alice", 5));
        ReplyFeed.Finished plain = headless.take(1);
        assertThat(plain.destinationAsWritten()).isEqualTo("/app/echo.{{userNumber}}");
        assertThat(plain.sent())
                .as("a headless run keeps no message past its write")
                .isNull();
        assertThat(plain.reply()).isNull();

        ReplyFeed.Taker gui = feed.open(true);
        OutgoingMessage second = TestMessages.outgoing("alice", tracker.ids().next());
        IncomingMessage reply = TestMessages.incoming("alice", 7);
        tracker.register(second, "/app/echo", TestMessages.options(60_000, 1, false), r -> {}, new SenderBook());
        tracker.reply(second.msgId(), reply);
        ReplyFeed.Finished shown = gui.take(1);
        assertThat(shown.sent()).isSameAs(second);
        assertThat(shown.reply()).isSameAs(reply);

        headless.close();
        gui.close();
        OutgoingMessage third = TestMessages.outgoing("alice", tracker.ids().next());
        MessageTiming after =
                tracker.register(third, TestMessages.options(60_000, 1, false), r -> {}, new SenderBook());
        assertThat(after.sent).as("the last taker gone, nothing is kept").isNull();
    }

    @Test
    void closedItKeepsNothing() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        feed.offer(record("a"));
        assertThat(feed.open().take(1)).isNull();
    }

    @Test
    void openItHandsOverInOrderAndCountsWhatDidNotFit() throws Exception {
        ReplyFeed feed = new ReplyFeed(2);
        ReplyFeed.Taker taker = feed.open();
        feed.offer(record("a"));
        feed.offer(record("b"));
        feed.offer(record("c")); // full: dropped, counted
        assertThat(taker.take(1).record().msgId()).isEqualTo("a");
        assertThat(taker.close()).as("c dropped, b left in the taker's batch").isEqualTo(new ReplyFeed.Unsampled(1, 1));
        assertThat(taker.take(1)).as("a closed taker takes nothing").isNull();
        feed.offer(record("d"));
        assertThat(feed.open().take(1))
                .as("nothing kept while no taker was open")
                .isNull();
    }

    @Test
    void eachRecordCarriesWhenItWasHandedOverNotWhenItWasTaken() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        ReplyFeed.Taker taker = feed.open();
        long before = System.currentTimeMillis();
        feed.offer(record("a"));
        long after = System.currentTimeMillis();
        Thread.sleep(2); // the clock moves on before the take
        ReplyFeed.Finished taken = taker.take(1);
        assertThat(taken.finishedMillis()).isBetween(before, after);
    }

    @Test
    void aTakeMovesABatchOutOfTheBoundedQueueSoItHasRoomAgain() throws Exception {
        ReplyFeed feed = new ReplyFeed(2);
        ReplyFeed.Taker taker = feed.open();
        feed.offer(record("a"));
        feed.offer(record("b"));
        assertThat(taker.take(1).record().msgId()).isEqualTo("a");
        feed.offer(record("c"));
        feed.offer(record("d"));
        feed.offer(record("e")); // the queue (2) is full again; b waits in the taker's batch
        assertThat(takeAll(taker)).containsExactly("b", "c", "d");
        assertThat(taker.close()).isEqualTo(new ReplyFeed.Unsampled(1, 0));
    }

    @Test
    void closingCountsWhatIsLeftInTheQueueAndInTheBatch() throws Exception {
        ReplyFeed feed = new ReplyFeed(8);
        ReplyFeed.Taker taker = feed.open();
        for (String id : List.of("a", "b", "c")) {
            feed.offer(record(id));
        }
        assertThat(taker.take(1).record().msgId()).isEqualTo("a"); // b and c now in the batch
        feed.offer(record("d"));
        assertThat(taker.close()).isEqualTo(new ReplyFeed.Unsampled(0, 3));
    }

    @Test
    void itStaysOpenUntilItsLastTakerCloses() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        ReplyFeed.Taker first = feed.open();
        ReplyFeed.Taker second = feed.open();
        feed.offer(record("a"));
        assertThat(first.close()).isEqualTo(new ReplyFeed.Unsampled(0, 0));
        assertThat(second.take(1).record().msgId()).isEqualTo("a");
        assertThat(second.close()).isEqualTo(new ReplyFeed.Unsampled(0, 0));
        assertThat(first.close()).as("closed twice counts once").isEqualTo(new ReplyFeed.Unsampled(0, 0));
    }

    @Test
    void anIdleFeedParksItsTakerOnceToLingerAndOnceToWaitNotInASpin() throws Exception {
        ReplyFeed.Taker taker = new ReplyFeed(4).open();
        assertThat(taker.take(3 * ReplyFeed.LINGER_MILLIS)).isNull();
        // Two parks (the linger, then the wait for the next record), a spurious return or two at most.
        assertThat(taker.parks()).isBetween(2L, 4L);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aTakerWaitingForTheNextRecordIsWokenByIt() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        ReplyFeed.Taker taker = feed.open();
        CompletableFuture<ReplyFeed.Finished> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return taker.take(TimeUnit.MINUTES.toMillis(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (!feed.hasSleeper()) {
            Thread.onSpinWait();
        }
        feed.offer(record("a"));
        assertThat(taken.get().record().msgId()).isEqualTo("a");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anInterruptEndsTheWaitAtOnce() throws Exception {
        ReplyFeed feed = new ReplyFeed(4);
        ReplyFeed.Taker taker = feed.open();
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                taker.take(TimeUnit.MINUTES.toMillis(10));
                thrown.complete(null);
            } catch (InterruptedException e) {
                thrown.complete(e);
            }
        });
        waiting.start();
        while (!feed.hasSleeper()) {
            Thread.onSpinWait();
        }
        waiting.interrupt();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void anInterruptedTakerTakesNothingEvenWithRecordsWaiting() {
        ReplyFeed feed = new ReplyFeed(4);
        ReplyFeed.Taker taker = feed.open();
        feed.offer(record("a"));
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> taker.take(1)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted())
                .as("the flag was consumed by the exception")
                .isFalse();
    }

    /**
     * Four threads offer at once into a small feed while a taker takes: every record is taken, dropped or left,
     * none twice and none lost, and the feed's count of what it holds ends where its contents end.
     */
    @Test
    @Timeout(60)
    void concurrentOffersAreEachTakenDroppedOrLeftOnce() throws Exception {
        ReplyFeed feed = new ReplyFeed(1_000);
        ReplyFeed.Taker taker = feed.open();
        int perThread = 20_000;
        List<Thread> offerers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            String prefix = t + "-";
            Thread offerer = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    feed.offer(record(prefix + i));
                }
            });
            offerer.start();
            offerers.add(offerer);
        }
        Set<String> taken = new HashSet<>();
        int duplicates = 0;
        while (offerers.stream().anyMatch(Thread::isAlive)) {
            ReplyFeed.Finished next = taker.take(1);
            if (next != null && !taken.add(next.record().msgId())) {
                duplicates++;
            }
        }
        for (Thread offerer : offerers) {
            offerer.join();
        }
        int queuedAtEnd = feed.queued();
        for (int look = 0; look < 1_000 && taken.size() < 4 * perThread; look++) {
            ReplyFeed.Finished next = taker.take(1);
            if (next == null) {
                break;
            }
            if (!taken.add(next.record().msgId())) {
                duplicates++;
            }
        }
        ReplyFeed.Unsampled unsampled = taker.close();

        assertThat(duplicates).isZero();
        assertThat(taken.size() + unsampled.dropped() + unsampled.left()).isEqualTo(4L * perThread);
        assertThat(queuedAtEnd).isBetween(0, 1_000);
        assertThat(feed.queued()).isZero();
    }
}
