package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyCountsTest {

    private final ReplyCounts counts = new ReplyCounts();

    @Test
    void pendingIsWhatIsSentAndNotYetEnded() {
        for (int i = 0; i < 5; i++) {
            counts.sent();
        }
        counts.answer(true, 100);
        counts.answer(false, 300);
        counts.lost();
        counts.failed();

        Books books = counts.books();
        assertThat(List.of(books.sent(), books.answered(), books.lost(), books.failed(), books.pending()))
                .containsExactly(5L, 1L, 1L, 1L, 2L);
        assertThat(books.answerRecords()).isEqualTo(2);
        assertThat(books.balanced()).isTrue();
        assertThat(counts.latencySnapshot().getTotalCount()).isEqualTo(2);
        assertThat(counts.latencySnapshot().getMaxValue()).isEqualTo(300);
    }

    /** More ended than sent (a count read between two adders' updates) never shows a negative pending. */
    @Test
    void pendingIsNeverNegative() {
        counts.answer(true, 1);
        assertThat(counts.books().pending()).isZero();
    }

    @Test
    void aLateReplyIsCountedAndOnlyAMeasuredOneMovesTheLongestLateness() {
        counts.lateReply(true, 2_000);
        counts.lateReply(false, 9_000);
        counts.lateReply(true, 1_000);
        assertThat(counts.books().lateReplies()).isEqualTo(3);
        assertThat(counts.books().lateMaxMicros()).isEqualTo(2_000);
    }

    @Test
    void receiptsAreReadFromTheReceiptBooks() {
        counts.receipts().ask();
        counts.receipts().ask();
        counts.receipts().receive(50);
        counts.receipts().arriveLate();
        Books books = counts.books();
        assertThat(List.of(books.receiptsAsked(), books.receipts(), books.noReceipts(), books.lateReceipts()))
                .containsExactly(2L, 1L, 0L, 1L);
    }

    @Test
    void answersReachTheLiveSummaryOnlyWhileItRuns() {
        List<String> lines = new ArrayList<>();
        counts.sent();
        counts.answer(true, 1_000);
        assertThat(counts.summarizeEvery(3600, lines::add, new Refusals(), () -> null))
                .isNotNull();
        counts.sent();
        counts.answer(true, 2_000);
        counts.endSummary();
        counts.answer(false, 3_000);
        counts.endSummary();

        assertThat(lines).hasSize(2);
        // The counts are the run's; the latencies only those of answers while the summary ran.
        assertThat(lines.get(0)).contains("answered 2,").contains("p50 2.00").contains("max 2.00");
        assertThat(lines.get(1)).contains("answered 2,").contains("p50 2.00").contains("max 2.00");
    }

    @Test
    void anIntervalOfZeroStartsNoSummary() {
        assertThat(counts.summarizeEvery(0, line -> {}, new Refusals(), () -> null))
                .isNull();
        counts.endSummary();
    }
}
