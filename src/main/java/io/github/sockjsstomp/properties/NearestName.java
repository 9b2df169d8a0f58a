package io.github.sockjsstomp.properties;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * Which known name a typed one is closest to: edits (a letter added, dropped, changed, or two neighbours
 * swapped), case ignored. A near miss is at most two edits away (one for names of four letters or less, where
 * two edits make another word: host, port), or differs only in case.
 */
public final class NearestName {

    private NearestName() {}

    /** The known name {@code typed} is a near miss of, if any; the closest, then the first alphabetically. */
    public static Optional<String> nearMiss(String typed, Collection<String> known) {
        return nearest(typed, known).filter(name -> isNearMiss(typed, name));
    }

    /** The closest known name however far, the first alphabetically among equals; empty if none is known. */
    public static Optional<String> nearest(String typed, Collection<String> known) {
        return known.stream()
                .filter(name -> !name.equals(typed))
                .min(Comparator.comparingInt((String name) -> edits(typed, name))
                        .thenComparing(Comparator.naturalOrder()));
    }

    static boolean isNearMiss(String typed, String known) {
        int edits = edits(typed, known);
        return edits <= (Math.min(typed.length(), known.length()) <= 4 ? 1 : 2);
    }

    /** Optimal string alignment distance between the lower-case forms. */
    public static int edits(String a, String b) {
        String s = a.toLowerCase(Locale.ROOT);
        String t = b.toLowerCase(Locale.ROOT);
        int[][] d = new int[s.length() + 1][t.length() + 1];
        for (int i = 0; i <= s.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= t.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= s.length(); i++) {
            for (int j = 1; j <= t.length(); j++) {
                int cost = s.charAt(i - 1) == t.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && s.charAt(i - 1) == t.charAt(j - 2) && s.charAt(i - 2) == t.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[s.length()][t.length()];
    }
}
