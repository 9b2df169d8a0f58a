package io.github.sockjsstomp.sampler;

import io.github.sockjsstomp.timing.TimingOptions;
import io.github.sockjsstomp.timing.TimingSink;
import io.github.sockjsstomp.timing.TimingStompUser;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * The sessions a thread's session sampler opened, kept in the thread's JMeter variables so that a send
 * sampler after it in the same thread sends on them. JMeter evaluates and copies every argument of a Java
 * Request on every sample and walks them all again afterwards; connection settings that sit on a sampler run
 * once per session cost nothing per message.
 */
final class ThreadSessions {

    private static final String VARIABLE = "sockjsstomp.sessions";

    private final String owner;
    private final List<TimingStompUser> users;
    private final List<String> subscribeTo;
    private String timedBy;
    private TimingOptions timing;
    private TimingSink sink;

    private ThreadSessions(String owner, List<TimingStompUser> users, List<String> subscribeTo) {
        this.owner = owner;
        this.users = users;
        this.subscribeTo = subscribeTo;
    }

    /** Makes a session sampler's users those of its thread; a later session sampler's replace them. */
    static void publish(String owner, List<TimingStompUser> users, List<String> subscribeTo) {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.putObject(VARIABLE, new ThreadSessions(owner, users, subscribeTo));
        }
    }

    /** The sessions a session sampler of this thread opened, or null. */
    static ThreadSessions current() {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        return variables == null ? null : variables.getObject(VARIABLE) instanceof ThreadSessions s ? s : null;
    }

    List<TimingStompUser> users() {
        return users;
    }

    List<String> subscribeTo() {
        return subscribeTo;
    }

    /**
     * Times the messages sent on these sessions the way {@code sampler} says. Null when done; otherwise why
     * not: two samplers that time messages differently cannot share one thread's sessions.
     */
    String useTiming(String sampler, TimingOptions options, TimingSink timingSink) {
        if (timedBy != null && !timedBy.equals(sampler) && (!same(timing, options) || sink != timingSink)) {
            return "'" + sampler + "' and '" + timedBy + "' send on the sessions of '" + owner + "' with different "
                    + "mode, replyTimeoutMillis, repliesPerMessage, idHeader, replyIdPattern or timingLog; give "
                    + "them the same, or give '" + sampler + "' connection parameters (host, port, ...) of its own";
        }
        timedBy = sampler;
        timing = options;
        sink = timingSink;
        for (TimingStompUser user : users) {
            user.useTiming(options, timingSink);
        }
        return null;
    }

    private static boolean same(TimingOptions a, TimingOptions b) {
        return a.replyTimeoutMillis() == b.replyTimeoutMillis() && a.repliesPerMessage() == b.repliesPerMessage()
                && a.awaitReply() == b.awaitReply() && a.idHeader().equals(b.idHeader())
                && Objects.equals(source(a.replyIdPattern()), source(b.replyIdPattern()));
    }

    private static String source(Pattern pattern) {
        return pattern == null ? null : pattern.pattern();
    }
}
