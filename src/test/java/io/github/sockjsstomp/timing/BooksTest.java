package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BooksTest {

    @Test
    void theBuilderPutsEachCountUnderItsName() {
        Books books = Books.builder()
                .sent(1)
                .answered(2)
                .lost(3)
                .failed(4)
                .pending(5)
                .answerRecords(6)
                .extraReplies(7)
                .lateReplies(8)
                .lateMaxMicros(9)
                .untimed(10)
                .receiptsAsked(11)
                .receipts(12)
                .noReceipts(13)
                .lateReceipts(14)
                .build();

        assertThat(List.of(
                        books.sent(),
                        books.answered(),
                        books.lost(),
                        books.failed(),
                        books.pending(),
                        books.answerRecords(),
                        books.extraReplies(),
                        books.lateReplies(),
                        books.lateMaxMicros(),
                        books.untimed(),
                        books.receiptsAsked(),
                        books.receipts(),
                        books.noReceipts(),
                        books.lateReceipts()))
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L);
    }

    @Test
    void aCountNotSetIsZero() {
        Books books = Books.builder().sent(2).answered(2).build();
        assertThat(books.balanced()).isTrue();
        assertThat(books.toString())
                .isEqualTo("sent=2 answered=2 lost=0 failed=0 pending=0 (answer records=0, extra copies=0, "
                        + "late replies=0, untimed=0)");
    }

    @Test
    void booksThatDoNotAddUpSaySo() {
        Books books = Books.builder().sent(3).answered(1).lost(1).build();
        assertThat(books.balanced()).isFalse();
        assertThat(books.toString()).contains(" UNBALANCED");
    }

    @Test
    void receiptsAreInTheBooksOnlyWhenAskedFor() {
        Books books = Books.builder()
                .sent(3)
                .answered(3)
                .receiptsAsked(3)
                .receipts(1)
                .noReceipts(1)
                .lateReceipts(1)
                .build();
        assertThat(books.toString()).endsWith(" receipts=1 no-receipt=1 receipts-pending=1 (late receipts=1)");
    }
}
