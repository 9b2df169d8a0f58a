package io.github.sockjsstomp.threadusers;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.timing.ThreadGroupCounts;
import org.apache.jmeter.threads.ThreadGroup;
import org.junit.jupiter.api.Test;

class GroupThreadsTest {

    /** A thread group that counts how often its thread count is evaluated (each is a __jexl3 in the plans). */
    static final class CountingGroup extends ThreadGroup {
        private final int threads;
        int evaluations;

        CountingGroup(int threads) {
            this.threads = threads;
        }

        @Override
        public int getNumThreads() {
            evaluations++;
            return threads;
        }
    }

    @Test
    void eachGroupsThreadCountIsEvaluatedOnce() {
        ThreadGroupCounts groups = new ThreadGroupCounts();
        CountingGroup users = new CountingGroup(300);
        CountingGroup replies = new CountingGroup(1);

        for (int thread = 0; thread < 300; thread++) {
            assertThat(GroupThreads.of(groups, users)).isEqualTo(300);
        }
        assertThat(GroupThreads.of(groups, replies)).isEqualTo(1);

        assertThat(users.evaluations).isEqualTo(1);
        assertThat(replies.evaluations).isEqualTo(1);
    }

    @Test
    void groupsWithEqualPropertiesAreCountedApart() {
        // JMeter's test elements are equal when their properties are: two groups of a plan may be
        ThreadGroupCounts groups = new ThreadGroupCounts();
        CountingGroup first = new CountingGroup(2);
        CountingGroup second = new CountingGroup(5);

        assertThat(GroupThreads.of(groups, first)).isEqualTo(2);
        assertThat(GroupThreads.of(groups, second)).isEqualTo(5);
    }

    @Test
    void aGroupOfNoThreadsCountsAsOne() {
        assertThat(GroupThreads.of(new ThreadGroupCounts(), new CountingGroup(0)))
                .isEqualTo(1);
    }
}
