package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a sender's silence earns the hint to check what it sends, and when the run has already said why. */
class SenderBookTest {

    private static final long FIRST = 1_000_000_000L;
    private static final long TIMEOUT = 5_000_000_000L;
    private static final long LATER = FIRST + TIMEOUT + 1;

    private final SenderBook book = new SenderBook();

    @Test
    void threeSendsNoneAnsweredPastTheTimeoutIsUnexplained() {
        assertThat(book.noneAnsweredUnexplained(3, FIRST, TIMEOUT, LATER)).isTrue();
    }

    @Test
    void tooFewSendsTooSoonOrOneAnswerIsNoCase() {
        assertThat(book.noneAnsweredUnexplained(2, FIRST, TIMEOUT, LATER))
                .as("two sends")
                .isFalse();
        assertThat(book.noneAnsweredUnexplained(3, FIRST, TIMEOUT, FIRST + TIMEOUT))
                .as("the timeout not yet passed")
                .isFalse();
        book.answered.increment();
        assertThat(book.noneAnsweredUnexplained(3, FIRST, TIMEOUT, LATER))
                .as("one answered")
                .isFalse();
    }

    /** The server refused its frames with an ERROR: the refusals' lines say so, the hint would point elsewhere. */
    @Test
    void aRefusalSinceTheFirstSendExplainsIt() {
        book.refused(FIRST + 10);
        assertThat(book.noneAnsweredUnexplained(3, FIRST, TIMEOUT, LATER)).isFalse();
    }

    /** A refusal before this sender's first message (an earlier session's) explains nothing of these. */
    @Test
    void aRefusalBeforeTheFirstSendDoesNot() {
        book.refused(FIRST - 10);
        assertThat(book.noneAnsweredUnexplained(3, FIRST, TIMEOUT, LATER)).isTrue();
    }
}
