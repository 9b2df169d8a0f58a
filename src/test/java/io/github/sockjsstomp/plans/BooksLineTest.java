package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.sockjsstomp.plans.PlanRun.BooksLine;
import io.github.sockjsstomp.timing.Books;
import org.junit.jupiter.api.Test;

/** The ITs' one reader of the books line, on lines as the run's end writes them (Books's own text). */
class BooksLineTest {

    private static final String LATENCY = "; latency us: p50=100 p90=200 p99=300 p99.9=300 max=300 (3 answers)";

    private static String logged(Books books, String afterBooks) {
        return "2026-01-01 12:00:00,000 INFO i.g.s.t.Run: STOMP timing books: " + books + afterBooks + LATENCY + "\n"
                + "2026-01-01 12:00:00,001 INFO o.a.j.e.StandardJMeterEngine: Notifying test listeners of end of test\n";
    }

    @Test
    void theCountsAreReadByName() {
        Books books = Books.builder()
                .sent(9)
                .answered(5)
                .lost(2)
                .failed(1)
                .pending(1)
                .answerRecords(5)
                .build();
        BooksLine line = BooksLine.in("earlier lines\n" + logged(books, ""), "jmeter.log");

        assertThat(line)
                .extracting(
                        BooksLine::sent, BooksLine::answered, BooksLine::lost, BooksLine::failed, BooksLine::pending)
                .containsExactly(9L, 5L, 2L, 1L, 1L);
        assertThat(line)
                .extracting(
                        BooksLine::lateReplies,
                        BooksLine::lateMaxMillis,
                        BooksLine::receipts,
                        BooksLine::noReceipts,
                        BooksLine::unwritten)
                .containsExactly(0L, 0L, 0L, 0L, 0L);
        assertThat(line.balanced()).isTrue();
        assertThat(line.allAnswered(9)).isFalse();
        assertThat(line.line()).startsWith("STOMP timing books: sent=9 ").endsWith("(3 answers)");
    }

    @Test
    void lateRepliesReceiptsAndUnwrittenRecordsWhenThereAreAny() {
        Books books = Books.builder()
                .sent(6)
                .answered(4)
                .lost(2)
                .lateReplies(2)
                .lateMaxMicros(2_600_000)
                .receiptsAsked(6)
                .receipts(4)
                .noReceipts(2)
                .lateReceipts(1)
                .build();
        BooksLine line = BooksLine.in(logged(books, ", timing log unwritten=6"), "jmeter.log");

        assertThat(line)
                .extracting(
                        BooksLine::lateReplies,
                        BooksLine::lateMaxMillis,
                        BooksLine::receipts,
                        BooksLine::noReceipts,
                        BooksLine::unwritten)
                .containsExactly(2L, 2600L, 4L, 2L, 6L);
    }

    @Test
    void allAnsweredIsEveryMessageSentAnsweredNothingElse() {
        Books books = Books.builder().sent(4).answered(4).answerRecords(4).build();
        BooksLine line = BooksLine.in(logged(books, ""), "jmeter.log");
        assertThat(line.allAnswered(4)).isTrue();
        assertThat(line.allAnswered(5)).isFalse();
    }

    @Test
    void booksThatDoNotAddUpAreNotBalanced() {
        Books books = Books.builder().sent(3).answered(1).build();
        assertThat(BooksLine.in(logged(books, ""), "jmeter.log").balanced()).isFalse();
    }

    @Test
    void aLogWithoutBooksSaysWhereItLooked() {
        assertThatThrownBy(() -> BooksLine.in("nothing sent\n", "run-7/jmeter.log"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("a books line in run-7/jmeter.log");
    }
}
