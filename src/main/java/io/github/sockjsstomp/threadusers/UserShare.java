package io.github.sockjsstomp.threadusers;

/**
 * One thread's share of a thread group's virtual users: {@code users} spread over {@code threads} so that the
 * shares differ by at most one and add up to exactly {@code users}; the first threads take the extra users.
 * Users are numbered 1 to {@code users} across the group, each thread's a contiguous block, so a users file of
 * {@code users} lines has a line for every user whatever the thread count.
 *
 * <p>Computed from the thread's number alone, so it holds in every JMeter engine (each splits its own users)
 * and whatever the thread group's ramp-up: a thread's share does not depend on which threads started first.
 *
 * @param count the thread's users
 * @param firstNumber the number of its first user (1-based)
 */
public record UserShare(int count, int firstNumber) {

    /**
     * @param users the thread group's users
     * @param threads the thread group's threads
     * @param thread this thread's number, 1-based
     */
    public static UserShare of(long users, int threads, int thread) {
        if (threads < 1 || thread < 1 || thread > threads || users < 0) {
            throw new IllegalArgumentException(
                    "thread " + thread + " of " + threads + " cannot share " + users + " users");
        }
        long base = users / threads;
        long extra = users % threads;
        long count = base + (thread <= extra ? 1 : 0);
        long first = (thread - 1) * base + Math.min(thread - 1, extra) + 1;
        return new UserShare(Math.toIntExact(count), Math.toIntExact(first));
    }

    /** Where the users went, in words: {@code 5 virtual users on 2 threads (2 to 3 per thread)}. */
    public static String placement(long users, int threads) {
        return users + (users == 1 ? " virtual user on " : " virtual users on ") + threads
                + (threads == 1 ? " thread (" : " threads (") + perThread(users, threads) + ")";
    }

    /** The shares in words: {@code 3 per thread}, or {@code 2 to 3 per thread} when they differ. */
    static String perThread(long users, int threads) {
        long base = users / threads;
        return users % threads == 0 ? base + " per thread" : base + " to " + (base + 1) + " per thread";
    }
}
