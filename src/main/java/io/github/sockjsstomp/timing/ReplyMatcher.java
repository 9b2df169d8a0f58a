package io.github.sockjsstomp.timing;

import io.github.sockjsstomp.client.message.IncomingMessage;
import io.github.sockjsstomp.client.user.UserListener;

/**
 * Listens on a virtual user for replies to the run's timed messages: each MESSAGE's id is looked for (see
 * {@link ReplyIdFinder}) and handed to the run's tracker, which matches it to its sender wherever that is.
 */
public final class ReplyMatcher implements UserListener {

    private final ReplyTracker tracker;
    private final ReplyIdFinder finder;

    public ReplyMatcher(ReplyTracker tracker, ReplyIdFinder finder) {
        this.tracker = tracker;
        this.finder = finder;
    }

    @Override
    public void onMessage(IncomingMessage message) {
        tracker.reply(finder.find(message), message);
    }

    @Override
    public String toString() {
        return "ReplyMatcher[" + tracker + "]";
    }
}
