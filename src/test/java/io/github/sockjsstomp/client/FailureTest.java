package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.websocket.DeploymentException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;

class FailureTest {

    @Test
    void refusedTomcatUpgradeGivesTheHttpStatus() {
        Throwable refused = new ExecutionException(new DeploymentException(
                "The HTTP response from the server [403] did not permit the HTTP upgrade to WebSocket"));
        assertThat(Failure.of(refused)).isEqualTo(new Failure("403", "Handshake refused with HTTP 403"));
    }

    @Test
    void refusedXhrRequestGivesTheHttpStatus() {
        Throwable refused = new ExecutionException(
                HttpClientErrorException.create(HttpStatus.UNAUTHORIZED, "Unauthorized", null, null, null));
        assertThat(Failure.of(refused).code()).isEqualTo("401");
    }

    @Test
    void nestedCausesAreClassified() {
        assertThat(Failure.of(new RuntimeException("wrapped", new ConnectException("Connection refused")))
                        .code())
                .isEqualTo(Failure.CONNECTION_REFUSED);
        assertThat(Failure.of(new SocketTimeoutException("Read timed out")).code())
                .isEqualTo(Failure.READ_TIMEOUT);
        assertThat(Failure.of(new TimeoutException()).code()).isEqualTo(Failure.CONNECT_TIMEOUT);
        assertThat(Failure.of(new IllegalStateException("odd")).code()).isEqualTo(Failure.CONNECT_FAILED);
    }

    @Test
    void describeNamesTheRootCauseWhenItAddsSomething() {
        String text = Failure.describe(new IllegalStateException("send failed", new ConnectException("reset")));
        assertThat(text).isEqualTo("IllegalStateException: send failed (ConnectException: reset)");
    }
}
