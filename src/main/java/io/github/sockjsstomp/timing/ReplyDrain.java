package io.github.sockjsstomp.timing;

import java.util.concurrent.TimeUnit;

/**
 * The end of a test's wait for the replies and receipts still in flight, while every session is still open: it
 * ends when no message awaits its first reply or its receipt and no further answer (a copy of a broadcast) has come
 * for a lull, or at the longest wait.
 */
final class ReplyDrain {

    private static final long QUIET_POLL_MILLIS = 20; // how late the wait may see the test's last reply

    private final ReplyCounts counts;

    ReplyDrain(ReplyCounts counts) {
        this.counts = counts;
    }

    /**
     * Waits until no message awaits its first reply or its receipt and no further answer has arrived for
     * {@code lullMillis}, or for at most {@code maxWaitMillis}.
     *
     * @return true if it got quiet in time
     */
    boolean awaitQuiet(long maxWaitMillis, long lullMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        long lullNanos = TimeUnit.MILLISECONDS.toNanos(lullMillis);
        long records = counts.answerRecords();
        long quietSince = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            long latest = counts.answerRecords();
            if (latest != records) {
                records = latest;
                quietSince = now;
            }
            if (counts.books().pending() == 0 && counts.receipts().pending() == 0 && now - quietSince >= lullNanos) {
                return true;
            }
            if (now - deadline >= 0) {
                return false;
            }
            Thread.sleep(QUIET_POLL_MILLIS);
        }
    }
}
