package io.github.sockjsstomp.properties;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NearestNameTest {

    private static final List<String> KNOWN =
            List.of("destination", "subscribeTo", "host", "port", "users", "usersFile", "pauseMillis", "payload");

    @ParameterizedTest
    @CsvSource({
        "destinaton, destination", // a letter dropped
        "destinatoin, destination", // two neighbours swapped
        "Destination, destination", // case
        "subscribeto, subscribeTo",
        "subscribTO, subscribeTo",
        "hots, host",
        "usrs, users",
        "userFile, usersFile",
        "pausMilis, pauseMillis",
    })
    void nearMissNamesTheKnownName(String typed, String expected) {
        assertThat(NearestName.nearMiss(typed, KNOWN)).contains(expected);
    }

    @ParameterizedTest
    @CsvSource({"hostname", "post2", "destinations2x", "threads", "rampUp", "xyz"})
    void farNamesAreNoNearMiss(String typed) {
        assertThat(NearestName.nearMiss(typed, KNOWN)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"destination, destination, 0", "abc, acb, 1", "kitten, sitting, 3", "HOST, host, 0", ", ab, 2"})
    void editsCountsInsertionsDeletionsChangesAndSwaps(String a, String b, int edits) {
        assertThat(NearestName.edits(a == null ? "" : a, b)).isEqualTo(edits);
    }

    @Test
    void nearestIsTheClosestThenTheFirstAlphabetically() {
        assertThat(NearestName.nearest("pauseMilis", KNOWN)).contains("pauseMillis");
        assertThat(NearestName.nearest("ab", List.of("ax", "ay"))).contains("ax");
        assertThat(NearestName.nearest("destination", List.of("destination"))).isEmpty();
    }
}
