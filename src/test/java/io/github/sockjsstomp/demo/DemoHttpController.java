package io.github.sockjsstomp.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The plain HTTP part of the demo: {@code /index}, {@code /clientPull}, {@code /stats}. */
@Controller
class DemoHttpController {

    private static final String INDEX_HTML = """
            <!DOCTYPE html>
            <html>
            <head><meta charset="utf-8"><title>SockJS/STOMP demo</title></head>
            <body>
            <h1>SockJS/STOMP demo server</h1>
            <p>SockJS endpoint <code>/ws</code> (needs the DEMOSESSION cookie set by this page),
            raw STOMP over WebSocket <code>/stomp-ws</code>, counters at <code>/stats</code>.</p>
            </body>
            </html>
            """;

    private final DemoHttpSessions httpSessions;

    private final DemoStats stats;

    private final ObjectMapper objectMapper;

    DemoHttpController(DemoHttpSessions httpSessions, DemoStats stats, ObjectMapper objectMapper) {
        this.httpSessions = httpSessions;
        this.stats = stats;
        this.objectMapper = objectMapper;
    }

    /** A new virtual user: a fresh DEMOSESSION cookie on every call. */
    @GetMapping("/index")
    public ResponseEntity<String> index() {
        ResponseCookie cookie = ResponseCookie.from(DemoHttpSessions.COOKIE_NAME, this.httpSessions.newToken())
                .path("/")
                .httpOnly(true)
                .build();
        return ResponseEntity.ok()
                .header(HttpHeaders.SET_COOKIE, cookie.toString())
                .cacheControl(CacheControl.noStore())
                .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .body(INDEX_HTML);
    }

    @GetMapping("/clientPull")
    public ResponseEntity<String> clientPull(HttpServletRequest request) throws JsonProcessingException {
        String token = this.httpSessions.validToken(request);
        Map<String, Object> body = new LinkedHashMap<>();
        if (token == null) {
            body.put("status", "unauthorized");
            return json(HttpStatus.UNAUTHORIZED, body);
        }
        body.put("session", token);
        body.put("status", "ok");
        return json(HttpStatus.OK, body);
    }

    @GetMapping("/stats")
    public ResponseEntity<String> stats() throws JsonProcessingException {
        return json(HttpStatus.OK, this.stats.snapshot(this.httpSessions));
    }

    private ResponseEntity<String> json(HttpStatus status, Object body) throws JsonProcessingException {
        return ResponseEntity.status(status)
                .cacheControl(CacheControl.noStore())
                .contentType(MediaType.APPLICATION_JSON)
                .body(this.objectMapper.writeValueAsString(body));
    }
}
