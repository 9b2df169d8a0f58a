package io.github.sockjsstomp.client.user;

import io.github.sockjsstomp.client.Transport;
import io.github.sockjsstomp.client.UserSettings;
import io.github.sockjsstomp.client.message.HandshakeHeaderList;
import io.github.sockjsstomp.client.wiring.TransportProbe;
import java.net.URI;

/**
 * What to try when a connect failed for a reason a user can fix: a transport that does not fit the endpoint,
 * an endpoint that wants a logged-in user, a CONNECT that lacks its CSRF token. Each hint costs at most one
 * /info request, and only on a failure.
 */
final class ConnectHints {

    /** What Spring answers when its message security refuses a CONNECT, e.g. for a missing CSRF token. */
    private static final String SPRING_INBOUND_REFUSAL = "Failed to send message to ExecutorSubscribableChannel";

    private ConnectHints() {}

    /** "; <hint>" for a failed transport, or "". */
    static String forTransport(TransportProbe probe, UserSettings used, String code, String cookieHeader) {
        URI endpoint = used.server().endpointHttpUri();
        if ("403".equals(code)) {
            String origin = used.connect().handshakeHeaders().of(used).get(HandshakeHeaderList.ORIGIN);
            String refusedOrigin = origin == null
                    ? ""
                    : "; or its allowed origins refused the handshake's Origin " + origin + ": set handshakeHeaders"
                            + "=Origin:<an origin the app allows> (a page's origin, https://app.example.com)";
            return "; the endpoint wants a logged-in user: give the login steps (formLoginPath, indexPath, "
                    + "bearerToken)" + refusedOrigin;
        }
        if (used.server().transport() == Transport.RAW && TransportProbe.isRefusedHandshake(code)) {
            return probe.rawOnSockJsHint(endpoint, cookieHeader)
                    .map(hint -> "; " + hint)
                    .orElse(
                            "404".equals(code)
                                    ? "; nothing answers at " + used.server().endpoint()
                                            + " (no SockJS /info there either): check -Jendpoint"
                                    : "");
        }
        if (used.server().transport().isSockJs() && "404".equals(code)) {
            TransportProbe.Result found = probe.probe(endpoint, cookieHeader);
            if (found.transport() == Transport.RAW) {
                return "; " + found.infoUrl() + " answered 404: no SockJS endpoint there. For a plain WebSocket "
                        + "endpoint set -Jtransport=raw (or auto)";
            }
        }
        if ("401".equals(code)) {
            return "; the endpoint wants a logged-in user: give the login steps (formLoginPath, indexPath, "
                    + "bearerToken)";
        }
        return "";
    }

    /** "; <hint>" for an ERROR frame that refused CONNECT, or "". */
    static String forStompError(UserSettings used, String error) {
        if (error.contains(SPRING_INBOUND_REFUSAL) && used.web().csrfPath().isEmpty()) {
            return "; Spring's message security refused the CONNECT: does the app want a CSRF token in it? "
                    + "Set csrfPath (a page with <meta name=\"_csrf\"> or a JSON endpoint such as /csrf)";
        }
        return "";
    }
}
