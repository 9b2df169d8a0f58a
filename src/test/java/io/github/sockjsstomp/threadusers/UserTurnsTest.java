package io.github.sockjsstomp.threadusers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Users are written one letter each: C connected, D down and due to connect, W down and waiting out its backoff,
 * L down, waiting, with a loss no sample said yet, G down and due but with its connect under way (connecting).
 */
class UserTurnsTest {

    @Test
    void takeTurnGoesRoundRobinOverAllUsersWhateverTheirState() {
        UserTurns turns = new UserTurns(3, new TestStates("CWD"));

        assertThat(List.of(turns.takeTurn(), turns.takeTurn(), turns.takeTurn(), turns.takeTurn()))
                .containsExactly(0, 1, 2, 0);
    }

    @ParameterizedTest
    @CsvSource({
        "CCC, 1, 1", // connected: its own turn
        "CDC, 1, 1", // due: its own turn, the caller connects it
        "CWC, 1, 2", // backing off: the next connected
        "CWW, 1, 0", // round-robin: the next connected wraps around
        "WLW, 0, -1", // none connected, none due
    })
    void usableIsTheUserInTurnUnlessItBacksOff(String users, int from, int expected) {
        assertThat(new UserTurns(users.length(), new TestStates(users)).usable(from))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"CCC, 2, 2", "WDC, 0, 2", "CWW, 1, 0", "DWL, 0, -1"})
    void nextConnectedPassesOverEveryUserDown(String users, int from, int expected) {
        assertThat(new UserTurns(users.length(), new TestStates(users)).nextConnected(from))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "CWD, 0, 2", // due
        "CWL, 0, 2", // a loss to say comes before its backoff is over
        "LCD, 1, 2",
        "DCL, 1, 2",
        "CWW, 0, -1",
        "CCC, 0, -1",
    })
    void nextToConnectIsTheFirstDownUserWithALossToSayOrDue(String users, int from, int expected) {
        assertThat(new UserTurns(users.length(), new TestStates(users)).nextToConnect(from))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"GWD, 0, 2", "GGG, 0, -1", "CGD, 1, 2", "DGC, 1, 0"})
    void nextToConnectPassesOverUsersWhoseConnectIsUnderWay(String users, int from, int expected) {
        assertThat(new UserTurns(users.length(), new TestStates(users)).nextToConnect(from))
                .isEqualTo(expected);
    }

    @Test
    void awaitNextDueNeverAnswersAUserWhoseConnectIsUnderWay() throws InterruptedException {
        assertThat(new UserTurns(3, new TestStates("GCD")).awaitNextDue()).isEqualTo(2);
        assertThat(new UserTurns(2, new TestStates("GC")).awaitNextDue()).isEqualTo(-1);
    }

    @Test
    void everyUserFoundDownHasItsLossNotedOnTheWay() {
        TestStates states = new TestStates("WDCW");
        UserTurns turns = new UserTurns(4, states);

        assertThat(turns.usable(0)).isEqualTo(2);
        assertThat(states.noted).containsExactly(0, 0, 1);
        assertThat(turns.downCount()).isEqualTo(3);
        assertThat(states.noted).containsExactly(0, 0, 1, 0, 1, 3);
    }

    @Test
    void awaitNextDueAnswersAtOnceWithTheFirstDueOrMinusOneWhenAllAreConnected() throws InterruptedException {
        assertThat(new UserTurns(3, new TestStates("CWD")).awaitNextDue()).isEqualTo(2);
        assertThat(new UserTurns(3, new TestStates("CCC")).awaitNextDue()).isEqualTo(-1);
    }

    @Test
    void awaitNextDueWaitsForTheUserWhoseBackoffEndsFirst() throws InterruptedException {
        TestStates states = new TestStates("WCW");
        states.dueNanos[0] = System.nanoTime() + 2_000_000;
        states.dueNanos[2] = System.nanoTime() + 1_000_000;

        assertThat(new UserTurns(3, states).awaitNextDue()).isEqualTo(2);
    }

    /** Users in fixed states; the losses noted, in order. */
    private static final class TestStates implements UserTurns.States {
        final String users;
        final long[] dueNanos;
        final List<Integer> noted = new ArrayList<>();

        TestStates(String users) {
            this.users = users;
            this.dueNanos = new long[users.length()];
            for (int i = 0; i < users.length(); i++) {
                dueNanos[i] = "DG".indexOf(users.charAt(i)) >= 0
                        ? System.nanoTime() - 1
                        : System.nanoTime() + 3_600_000_000_000L;
            }
        }

        @Override
        public boolean isConnected(int index) {
            return users.charAt(index) == 'C';
        }

        @Override
        public void lost(int index) {
            noted.add(index);
        }

        @Override
        public boolean isDue(int index, long nowNanos) {
            return isConnected(index) || nowNanos - dueNanos[index] >= 0;
        }

        @Override
        public long dueNanos(int index) {
            return dueNanos[index];
        }

        @Override
        public boolean hasUnsaidLoss(int index) {
            return users.charAt(index) == 'L';
        }

        @Override
        public boolean isConnecting(int index) {
            return users.charAt(index) == 'G';
        }

        @Override
        public long longestDelayNanos() {
            return 1_000_000;
        }
    }
}
