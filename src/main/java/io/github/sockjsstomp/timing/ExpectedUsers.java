package io.github.sockjsstomp.timing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The users this engine's plan runs, told by each thread group's session samplers as they set up (a group's
 * threads start over its ramp-up, but every one of them knows the group's total): what steps that begin
 * {@code online} wait for.
 */
public final class ExpectedUsers {

    private final Map<String, Long> byGroup = new ConcurrentHashMap<>();

    /** Thread group {@code group} runs {@code users} users in all (told by each of its threads: the same). */
    public void group(String group, long users) {
        byGroup.put(group, users);
    }

    /** The users of every group told so far; 0 before any. */
    public long total() {
        return byGroup.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
        return "ExpectedUsers" + byGroup;
    }
}
