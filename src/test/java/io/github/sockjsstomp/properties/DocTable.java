package io.github.sockjsstomp.properties;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown table of a reference page: its rows (cells by column name) and the section heading above it. A
 * default cell says one value for everyone ({@code `8080`}), {@code (empty)}, {@code computed ...}, or per
 * owner ({@code connect: (empty); receive: `/user/queue/chat`}).
 */
record DocTable(String heading, List<Map<String, String>> rows) {

    /** What a default cell means for one owner: a value, or computed (a JMeter expression, a formula). */
    record Default(String value, boolean computed) {

        static final Default COMPUTED = new Default(null, true);

        @Override
        public String toString() {
            return computed ? "computed" : "`" + value + "`";
        }
    }

    private static final Pattern OWNER = Pattern.compile("([A-Za-z][\\w-]*): (.+)");

    /** Every table of {@code markdown} whose header row's first cells are {@code columns}. */
    static List<DocTable> all(String markdown, String... columns) {
        List<DocTable> tables = new ArrayList<>();
        String heading = "";
        List<String> lines = markdown.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#")) {
                heading = line.replaceFirst("^#+\\s*", "");
            }
            List<String> header = cells(line);
            if (header.size() < columns.length
                    || !header.subList(0, columns.length).equals(List.of(columns))
                    || i + 1 >= lines.size()
                    || !lines.get(i + 1).startsWith("| ---")) {
                continue;
            }
            List<Map<String, String>> rows = new ArrayList<>();
            int j = i + 2;
            for (; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                List<String> cells = cells(lines.get(j));
                Map<String, String> row = new LinkedHashMap<>();
                for (int c = 0; c < header.size() && c < cells.size(); c++) {
                    row.put(header.get(c), cells.get(c));
                }
                rows.add(row);
            }
            tables.add(new DocTable(heading, rows));
            i = j - 1;
        }
        return tables;
    }

    /** The one table with these columns; fails when there is none or more. */
    static DocTable only(String markdown, String... columns) {
        List<DocTable> tables = all(markdown, columns);
        if (tables.size() != 1) {
            throw new AssertionError(
                    tables.size() + " tables with header | " + String.join(" | ", columns) + " |, expected one");
        }
        return tables.get(0);
    }

    private static List<String> cells(String line) {
        if (!line.startsWith("|")) {
            return List.of();
        }
        List<String> cells = new ArrayList<>();
        for (String cell : line.substring(1).split("(?<!\\\\)\\|", -1)) {
            cells.add(cell.strip().replace("\\|", "|"));
        }
        if (!cells.isEmpty() && cells.get(cells.size() - 1).isEmpty()) {
            cells.remove(cells.size() - 1);
        }
        return cells;
    }

    /** The names in a name cell: {@code `host`} or {@code `host`, `port`}. */
    static List<String> names(String cell) {
        List<String> names = new ArrayList<>();
        Matcher matcher = Pattern.compile("`([^`]+)`").matcher(cell);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /** The owners a "read by" cell names; {@code all} gives {@code everyone}. */
    static List<String> owners(String cell, List<String> everyone) {
        if (cell.equals("all")) {
            return everyone;
        }
        return List.of(cell.split(",\\s*"));
    }

    /** The default a cell gives each owner; the key {@code null} holds one default for every owner. */
    static Map<String, Default> defaults(String cell) {
        Map<String, Default> byOwner = new LinkedHashMap<>();
        Default one = single(cell);
        if (one != null) {
            byOwner.put(null, one);
            return byOwner;
        }
        for (String part : cell.split(";\\s+")) {
            Matcher matcher = OWNER.matcher(part.strip());
            if (!matcher.matches() || single(matcher.group(2)) == null) {
                throw new AssertionError("default cell '" + cell + "': '" + part
                        + "' is neither `value`, (empty), computed ..., nor owner: `value`");
            }
            byOwner.put(matcher.group(1), single(matcher.group(2)));
        }
        return byOwner;
    }

    private static Default single(String cell) {
        String text = cell.strip();
        if (text.equals("(empty)")) {
            return new Default("", false);
        }
        if (text.startsWith("computed")) {
            return Default.COMPUTED;
        }
        if (text.length() >= 2
                && text.startsWith("`")
                && text.endsWith("`")
                && text.indexOf('`', 1) == text.length() - 1) {
            return new Default(text.substring(1, text.length() - 1), false);
        }
        return null;
    }
}
