package io.github.sockjsstomp.serverside;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The words of the cost lines, written exactly as the analysis tool writes them (analysis/…/session_costs.py), so
 * that the console's line and the report's can be compared character for character: bytes in decimal units to three
 * significant digits (its {@code bytes_words}), every rounding the exact binary value's, half to even (as Python's
 * format does), never a negative zero.
 */
final class CostWords {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);
    private static final String[] UNITS = {"TB", "GB", "MB", "KB"};
    private static final double[] SIZES = {1e12, 1e9, 1e6, 1e3};

    private CostWords() {}

    /** 512 B, 1.50 KB, 23.4 MB, 120 MB, 1.20 GB. */
    static String bytes(double n) {
        for (int i = 0; i < UNITS.length; i++) {
            if (Math.abs(n) >= SIZES[i]) {
                double v = n / SIZES[i];
                return fixed(v, Math.abs(v) < 10 ? 2 : Math.abs(v) < 100 ? 1 : 0) + " " + UNITS[i];
            }
        }
        return fixed(n, 0) + " B";
    }

    /** {@code value} with {@code decimals} decimals, rounded half to even on its exact value. */
    static String fixed(double value, int decimals) {
        return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** 2,000. */
    static String count(long count) {
        return String.format(Locale.ROOT, "%,d", count);
    }

    /** The time of day of a reading, to the millisecond: a reading of the file is found by it. */
    static String time(long epochMillis, ZoneId zone) {
        return TIME.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
    }
}
