package io.github.sockjsstomp.bench.floors;

import jakarta.websocket.MessageHandler;
import java.util.function.Consumer;

/**
 * A floor's text handler on a container sized as the plugin's ({@code FloorLanes}): Tomcat hands a text message over
 * in pieces of at most its buffer (1 KB), as it does to the plugin's plain WebSocket sessions, and this joins them into
 * the whole message for {@code onMessage}. A message of one piece, every frame the floors read, passes as it came.
 * Only the session's reading thread calls it.
 */
final class WholeText implements MessageHandler.Partial<String> {

    private final Consumer<String> onMessage;
    /** The pieces so far of a message that came in more than one; null between messages. */
    private StringBuilder pieces;

    WholeText(Consumer<String> onMessage) {
        this.onMessage = onMessage;
    }

    @Override
    public void onMessage(String piece, boolean last) {
        if (pieces == null && last) {
            onMessage.accept(piece);
            return;
        }
        if (pieces == null) {
            pieces = new StringBuilder(piece);
            return;
        }
        pieces.append(piece);
        if (last) {
            String whole = pieces.toString();
            pieces = null;
            onMessage.accept(whole);
        }
    }
}
