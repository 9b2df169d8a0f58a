package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PayloadTemplateTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "hello|hello",
        "{{msgId}}|m1-7",
        "{\"id\":\"{{msgId}}\",\"seq\":{{seq}}}|{\"id\":\"m1-7\",\"seq\":3}",
        "{{user}}@{{thread}}|alice@12",
        "queue.{{session}}|queue.1201",
        "{{ seq }}-{{seq}}|3-3",
        "at {{sentAt}}|at 1700000000000",
        "{single} braces {stay}|{single} braces {stay}",
    })
    void renderSubstitutesEveryPlaceholder(String source, String expected) {
        PayloadTemplate template = PayloadTemplate.compile(source);
        assertThat(template.render("m1-7", 3, 12, 1201, "alice", 1_700_000_000_000L)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{{nope}}|unknown placeholder {{nope}}",
        "x {{msgId|unclosed placeholder at '{{msgId'",
    })
    void compileRejectsBadPlaceholdersQuotingThem(String source, String message) {
        assertThatThrownBy(() -> PayloadTemplate.compile(source)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"{{msgId}}|''"})
    void renderWithoutAnIdLeavesItEmpty(String source, String expected) {
        assertThat(PayloadTemplate.compile(source).render(null, 1, 1, 1, "u", 0)).isEqualTo(expected);
    }
}
