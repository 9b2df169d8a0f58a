package io.github.sockjsstomp.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.cookie.BasicClientCookie;
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
        login.cookieStore().addCookie(cookie("SID", "a", "127.0.0.1", "/ws"));
        login.cookieStore().addCookie(cookie("ROOT", "r", "127.0.0.1", "/"));
        login.cookieStore().addCookie(cookie("ELSEWHERE", "x", "example.org", "/"));
        assertThat(login.cookieHeader(URI.create(uri))).isEqualTo(expected);
    }

    private static BasicClientCookie cookie(String name, String value, String domain, String path) {
        BasicClientCookie cookie = new BasicClientCookie(name, value);
        cookie.setDomain(domain);
        cookie.setPath(path);
        cookie.setAttribute("domain", null);
        return cookie;
    }
}
