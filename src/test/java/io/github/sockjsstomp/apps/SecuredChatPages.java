package io.github.sockjsstomp.apps;

import java.security.Principal;
import org.springframework.http.MediaType;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/** The pages of {@link SecuredChatApp} that hand the CSRF token to the chat's JavaScript. */
@RestController
class SecuredChatPages {

    @GetMapping(value = "/", produces = MediaType.TEXT_HTML_VALUE)
    String index(Principal principal) {
        return "<!DOCTYPE html><html><body><p>Signed in as " + HtmlUtils.htmlEscape(principal.getName())
                + ". <a href=\"/chat\">Chat</a></p></body></html>";
    }

    /** As Spring Security's reference shows for JavaScript clients: the token and header name in meta tags. */
    @GetMapping(value = "/chat", produces = MediaType.TEXT_HTML_VALUE)
    String chat(CsrfToken csrf) {
        return "<!DOCTYPE html>\n<html>\n<head>\n  <title>Chat</title>\n"
                + "  <meta name=\"_csrf\" content=\"" + HtmlUtils.htmlEscape(csrf.getToken()) + "\"/>\n"
                + "  <meta name=\"_csrf_header\" content=\"" + HtmlUtils.htmlEscape(csrf.getHeaderName()) + "\"/>\n"
                + "</head>\n<body><div id=\"chat\"></div><script src=\"/app.js\"></script></body>\n</html>\n";
    }

    /** Spring's CsrfToken as JSON: {@code {"token":...,"headerName":"X-CSRF-TOKEN","parameterName":"_csrf"}}. */
    @GetMapping("/csrf")
    CsrfToken csrf(CsrfToken csrf) {
        return csrf;
    }
}
