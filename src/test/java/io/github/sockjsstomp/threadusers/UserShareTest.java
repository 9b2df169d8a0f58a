package io.github.sockjsstomp.threadusers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UserShareTest {

    @ParameterizedTest
    @CsvSource({"5, 2, '3,2'", "6, 3, '2,2,2'", "7, 3, '3,2,2'", "3, 3, '1,1,1'", "2, 3, '1,1,0'", "1000, 2, '500,500'"
    })
    void sharesDifferByAtMostOneAndAddUpToTheUsers(long users, int threads, String expected) {
        List<String> counts = new ArrayList<>();
        int next = 1;
        for (int thread = 1; thread <= threads; thread++) {
            UserShare share = UserShare.of(users, threads, thread);
            assertThat(share.firstNumber())
                    .as("thread %d numbers on from the one before", thread)
                    .isEqualTo(next);
            next += share.count();
            counts.add(Integer.toString(share.count()));
        }
        assertThat(String.join(",", counts)).isEqualTo(expected);
        assertThat(next - 1L).isEqualTo(users);
    }

    @ParameterizedTest
    @CsvSource({"5, 2, 2 to 3 per thread", "6, 3, 2 per thread", "1, 1, 1 per thread"})
    void perThreadSaysTheShares(long users, int threads, String expected) {
        assertThat(UserShare.perThread(users, threads)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "5, 2, 5 virtual users on 2 threads (2 to 3 per thread)",
        "1, 1, 1 virtual user on 1 thread (1 per thread)",
        "2000, 2, 2000 virtual users on 2 threads (1000 per thread)"
    })
    void placementSaysUsersAndThreadsInWords(long users, int threads, String expected) {
        assertThat(UserShare.placement(users, threads)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"5, 2, 3", "5, 0, 1", "5, 2, 0", "-1, 2, 1"})
    void aThreadOutsideItsGroupIsRefused(long users, int threads, int thread) {
        assertThatThrownBy(() -> UserShare.of(users, threads, thread))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("thread " + thread + " of " + threads);
    }
}
