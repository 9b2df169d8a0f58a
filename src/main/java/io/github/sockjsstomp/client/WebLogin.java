package io.github.sockjsstomp.client;

/**
 * How a virtual user logs in to a web app before its STOMP session, as the app's own pages do: each part is
 * off when empty. The steps run in this order: the index page, the clientPull request, a form login with the
 * user's login and passcode, then the CSRF token for CONNECT.
 *
 * @param indexPath a page to GET first (cookies kept)
 * @param pullPath a request to GET after it
 * @param formLoginPath the login page: GET it, POST its form with the user's login, passcode and CSRF token
 * @param csrfPath a page with {@code <meta name="_csrf">} tags, or a JSON endpoint returning Spring's
 *     {@code CsrfToken}: its token goes into the CONNECT frame (Spring Security's WebSocket message security
 *     asks for one by default)
 * @param bearerToken a token for {@code Authorization: Bearer} on the handshake
 * @param bearerOnConnect whether the token also goes into the CONNECT frame's {@code Authorization} header
 */
public record WebLogin(
        String indexPath,
        String pullPath,
        String formLoginPath,
        String csrfPath,
        String bearerToken,
        boolean bearerOnConnect) {

    public static final WebLogin NONE = new WebLogin("", "", "", "", "", false);

    public WebLogin {
        indexPath = trimmed(indexPath);
        pullPath = trimmed(pullPath);
        formLoginPath = trimmed(formLoginPath);
        csrfPath = trimmed(csrfPath);
        bearerToken = trimmed(bearerToken);
    }

    /** Whether a connect starts with HTTP requests of its own (index, clientPull, form login, CSRF token). */
    public boolean hasSteps() {
        return !indexPath.isEmpty() || !pullPath.isEmpty() || !formLoginPath.isEmpty() || !csrfPath.isEmpty();
    }

    /** The same steps with another user's token. */
    public WebLogin withBearerToken(String token) {
        return new WebLogin(indexPath, pullPath, formLoginPath, csrfPath, token, bearerOnConnect);
    }

    private static String trimmed(String value) {
        return value == null ? "" : value.trim();
    }

    @Override
    public String toString() {
        // Never the token: settings end up in log lines.
        return "WebLogin[index=" + indexPath + ", pull=" + pullPath + ", form=" + formLoginPath + ", csrf=" + csrfPath
                + (bearerToken.isEmpty() ? "" : ", bearer token") + "]";
    }
}
