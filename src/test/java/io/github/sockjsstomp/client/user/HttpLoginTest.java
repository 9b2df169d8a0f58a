package io.github.sockjsstomp.client.user;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import org.apache.http.impl.client.HttpClients;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpLoginTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:8080/ws|SID=a; ROOT=r",
                "ws://127.0.0.1:8080/ws/123/abc/websocket|SID=a; ROOT=r",
                "http://127.0.0.1:8080/other|ROOT=r",
                "http://localhost:8080/ws|''",
            })
    void cookieHeaderHoldsOnlyCookiesMatchingTheUri(String uri, String expected) {
        HttpLogin login = new HttpLogin(HttpClients.createMinimal(), 1000);
        // As SockJS's responses hand them over: a host-only cookie per origin, the path as set.
        login.addSetCookies(URI.create("http://127.0.0.1:8080/ws/info"), List.of("SID=a; Path=/ws", "ROOT=r; Path=/"));
        login.addSetCookies(URI.create("http://example.org/"), List.of("ELSEWHERE=x; Path=/"));
        assertThat(login.cookieHeader(URI.create(uri))).isEqualTo(expected);
    }
}
