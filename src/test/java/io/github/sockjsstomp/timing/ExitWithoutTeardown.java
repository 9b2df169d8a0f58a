package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.OutgoingMessage;
import java.nio.file.Path;
import org.springframework.messaging.simp.stomp.StompHeaders;

/**
 * A JVM that sends, gets no replies, and exits without any sampler teardown (a kill, System.exit): the
 * shutdown hook must still write every record. Run by {@link TimingShutdownTest} in a child JVM.
 */
final class ExitWithoutTeardown {

    private ExitWithoutTeardown() {
    }

    public static void main(String[] args) throws Exception {
        TimingLog log = TimingLog.open(Path.of(args[0]));
        int messages = Integer.parseInt(args[1]);
        TimingRun.join(0, 0, () -> { });
        ReplyTracker tracker = ReplyTracker.shared();
        for (int i = 0; i < messages; i++) {
            OutgoingMessage message = new OutgoingMessage("exiter", "/app/echo", new StompHeaders(), i,
                    tracker.ids().next(), new byte[8], System.currentTimeMillis());
            tracker.register(message, 60_000, 1, log, false);
        }
        System.exit(0);
    }
}
