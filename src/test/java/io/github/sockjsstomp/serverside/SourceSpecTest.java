package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SourceSpecTest {

    @Test
    void aListOfEveryKind() {
        long pid = ProcessHandle.current().pid();
        assertThat(SourceSpec.parseList(" actuator:http://127.0.0.1:8080/actuator/ ,"
                        + "RabbitMQ:http://guest:guest@127.0.0.1:15672, ,pid:" + pid))
                .containsExactly(
                        new SourceSpec("actuator", "http://127.0.0.1:8080/actuator"),
                        new SourceSpec("rabbitmq", "http://guest:guest@127.0.0.1:15672"),
                        new SourceSpec("pid", Long.toString(pid)));
    }

    @Test
    void emptyIsNone() {
        assertThat(SourceSpec.parseList("")).isEmpty();
        assertThat(SourceSpec.parseList(" , ")).isEmpty();
    }

    @Test
    void thePasswordIsNotSaid() {
        assertThat(SourceSpec.parse("rabbitmq:http://guest:secret@127.0.0.1:15672"))
                .hasToString("rabbitmq:http://127.0.0.1:15672");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:8080/actuator",
                "prometheus:http://127.0.0.1:8080",
                "actuator:",
                "actuator:127.0.0.1:8080/actuator",
                "rabbitmq:ftp://127.0.0.1",
                "pid:abc",
                "pid:-3",
                "pid:999999999"
            })
    void aBadSourceIsRefusedQuotingIt(String item) {
        assertThatThrownBy(() ->
                        SourceSpec.parseList("pid:" + ProcessHandle.current().pid() + "," + item))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + item + "'");
    }

    @Test
    void aPidThatIsNotRunningSaysSo() {
        assertThatThrownBy(() -> SourceSpec.parseList("pid:999999999"))
                .hasMessageContaining("no process 999999999 on this machine");
    }
}
