package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.user.VirtualUser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's per-message timing (a reply tracker, a timing log) that reaches no run: a tracker of its own and a log
 * in a temporary file, deleted on close. The warm-up times messages through it with the classes a run uses.
 */
public final class ThrowawayTiming implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ThrowawayTiming.class);

    private final Path file;
    private final TimingLog sink;
    private final ReplyTracker tracker;
    private final ExpirySweeper sweeper;

    public ThrowawayTiming() throws IOException {
        file = Files.createTempFile("stomp-warm-up-", ".csv");
        try {
            sink = new TimingLog(file, "warm-up", "warm-up", reason -> {});
        } catch (IOException | RuntimeException e) {
            deleteQuietly(file);
            throw e;
        }
        tracker = new ReplyTracker(MessageIds.random(), new ReplyFeed(1));
        sweeper = ExpirySweeper.start(tracker);
    }

    /** Times what {@code user} sends, and the replies it receives, here. */
    public UserTiming attach(VirtualUser user, TimingOptions options) {
        return UserTiming.attach(user, tracker, options, sink);
    }

    /** The tracker's count of answers: a reply is received before it is matched. */
    public long answered() {
        return tracker.books().answered();
    }

    @Override
    public void close() {
        sink.close();
        sweeper.close();
        deleteQuietly(file);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("Could not delete warm-up file {}: {}", file, e.toString());
        }
    }
}
