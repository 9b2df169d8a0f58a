package io.github.sockjsstomp.client.deflate;

import org.apache.tomcat.websocket.PerMessageDeflate;
import org.apache.tomcat.websocket.TransformationFactory;

/**
 * Puts {@link SessionDeflate} in Tomcat's WebSocket client for every session that agrees on permessage-deflate.
 * Tomcat builds each session's extensions through its JVM-wide {@link TransformationFactory}; the builder registered
 * here makes the client's side ours and leaves a server's side (a Tomcat server in the same JVM, as in the tests) to
 * Tomcat's own {@link PerMessageDeflate}.
 */
public final class DeflateExtension {

    private static volatile boolean installed;

    private DeflateExtension() {}

    /** Once per JVM, before the first connect that may offer compression. */
    public static void install() {
        if (installed) {
            return;
        }
        synchronized (DeflateExtension.class) {
            if (!installed) {
                TransformationFactory.getInstance()
                        .registerExtension(
                                SessionDeflate.NAME,
                                (answers, isServer) -> isServer
                                        ? PerMessageDeflate.BUILDER.build(answers, true)
                                        : SessionDeflate.negotiate(answers, ZlibPool.SHARED));
                installed = true;
            }
        }
    }

    /**
     * The zlib streams the JVM's sessions have made, deflaters and inflaters together: about as many as messages were
     * under way at once, whatever the sessions held, and one more for each session that keeps its own inflater.
     */
    public static long zlibStreamsMade() {
        return ZlibPool.SHARED.deflatersMade() + ZlibPool.SHARED.inflatersMade();
    }

    /** Inflaters that sessions keep as their own: one for each session the server has sent enough to. */
    public static long inflatersKeptBySessions() {
        return ZlibPool.SHARED.inflatersKept();
    }
}
