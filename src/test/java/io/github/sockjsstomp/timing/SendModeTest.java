package io.github.sockjsstomp.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SendModeTest {

    @ParameterizedTest
    @CsvSource({
        "fire-and-forget, FIRE_AND_FORGET, false, false",
        "' await-reply ', AWAIT_REPLY, true, false",
        "await-receipt, AWAIT_RECEIPT, true, true"
    })
    void aModeIsReadFromItsText(String text, SendMode mode, boolean awaits, boolean answeredByReceipt) {
        assertThat(SendMode.of(text)).isEqualTo(mode);
        assertThat(mode.awaits()).isEqualTo(awaits);
        assertThat(mode.answeredByReceipt()).isEqualTo(answeredByReceipt);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "await", "AWAIT-REPLY", "receipt"})
    void anyOtherTextNamesTheValuesAllowed(String text) {
        assertThatThrownBy(() -> SendMode.of(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected fire-and-forget, await-reply, await-receipt");
    }

    @ParameterizedTest
    @CsvSource({"FIRE_AND_FORGET, false", "AWAIT_REPLY, false", "AWAIT_RECEIPT, true"})
    void awaitReceiptAlwaysAsksForReceipts(SendMode mode, boolean receipts) {
        TimingOptions options = new TimingOptions(1000, 1, mode, "", null, false, false);
        assertThat(options.receipts()).isEqualTo(receipts);
        assertThat(options.sameAs(new TimingOptions(1000, 1, mode, "", null, false, true)))
                .isEqualTo(receipts);
    }
}
