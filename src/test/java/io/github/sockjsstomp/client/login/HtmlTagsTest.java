package io.github.sockjsstomp.client.login;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HtmlTagsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "<meta name=\"_csrf\" content=\"abc-123\"/>|abc-123",
                "<meta content=\"abc-123\" name=\"_csrf\">|abc-123",
                "<META NAME='_csrf' CONTENT='abc-123' />|abc-123",
                "<meta name=_csrf content=abc-123>|abc-123",
                "<meta\t name=\"_csrf\"\t content=\"a&amp;b&#x3D;\">|a&b=",
                "<meta name=\"other\" content=\"x\"><meta name=\"_csrf\" content=\"y\">|y",
            })
    void metaContentInAnyOrderAndQuoting(String html, String expected) {
        assertThat(HtmlTags.valueOfNamed(html, "meta", "_csrf", "content")).isEqualTo(expected);
    }

    @Test
    void attributesOverSeveralLines() {
        String html = "<meta\n  name=\"_csrf\"\n  content=\"abc\"\n/>";
        assertThat(HtmlTags.valueOfNamed(html, "meta", "_csrf", "content")).isEqualTo("abc");
    }

    @Test
    void absentNameIsNull() {
        assertThat(HtmlTags.valueOfNamed("<meta name=\"_csrf_header\" content=\"X\">", "meta", "_csrf", "content"))
                .isNull();
    }

    @Test
    void tagNameMustMatchWhole() {
        assertThat(HtmlTags.find("<metadata name=\"_csrf\"><meta name=\"a\">", "meta"))
                .hasSize(1);
    }

    @Test
    void valuelessAttributesAreKept() {
        assertThat(HtmlTags.find("<input required type=\"password\" name=\"password\">", "input")
                        .get(0))
                .containsEntry("required", "")
                .containsEntry("type", "password");
    }

    @Test
    void firstPostFormSkipsGetForms() {
        String html = "<form action=\"/search\"><input name=q></form>"
                + "<form class=\"login\" method=\"POST\" action=\"/login\"><input type=hidden name=_csrf value=t>"
                + "</form><input type=hidden name=outside value=o>";

        HtmlTags.Form form = HtmlTags.firstPostForm(html);

        assertThat(form.attributes()).containsEntry("action", "/login");
        assertThat(form.body()).contains("_csrf").doesNotContain("outside");
    }
}
