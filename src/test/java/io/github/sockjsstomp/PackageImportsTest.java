package io.github.sockjsstomp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Imports run one way (STYLE.md, points 6 and 7): no two packages of ours need each other's names, directly or
 * round a cycle, and the protocol rooms know nothing of JMeter. Read from the sources, so a failure names the file
 * and line of every import in the cycle. An import is how one package of ours uses another (a class of another
 * package cannot be used without one, or without its full name, which counts too); a name in a string does not.
 */
class PackageImportsTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final String OURS = "io.github.sockjsstomp";

    /**
     * The rooms that speak SockJS, STOMP and HTTP, time messages, poll the server's figures and warm the JIT: usable
     * outside JMeter (STYLE.md, point 1), as ARCHITECTURE.md names them.
     */
    private static final List<String> WITHOUT_JMETER =
            List.of(OURS + ".client", OURS + ".timing", OURS + ".serverside", OURS + ".warmup");

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;");
    /** A name of ours, imported or written out in full: its package is the part before the first capital. */
    private static final Pattern OUR_NAME =
            Pattern.compile("\\b" + Pattern.quote(OURS) + "((?:\\.[a-z_][\\w]*)*)\\.[A-Z]");

    private static final Pattern JMETER = Pattern.compile("\\borg\\.apache\\.jmeter\\.");
    private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");

    @Test
    void noTwoPackagesImportEachOtherDirectlyOrRoundACycle() {
        List<String> cycles = cycles(uses(sources()));
        assertThat(cycles).as("package cycles (imports must run one way)").isEmpty();
    }

    @Test
    void theProtocolRoomsImportNothingFromJMeter() {
        List<String> found = new ArrayList<>();
        sources().forEach((file, text) -> {
            String pkg = packageOf(text);
            if (WITHOUT_JMETER.stream().noneMatch(room -> pkg.equals(room) || pkg.startsWith(room + "."))) {
                return;
            }
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (JMETER.matcher(withoutStrings(lines[i])).find()) {
                    found.add(file + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        });
        assertThat(found).as("JMeter in " + WITHOUT_JMETER).isEmpty();
    }

    @Test
    void aCycleIsNamedWithTheFileAndLineOfEachImport() {
        Map<Path, String> sources = new LinkedHashMap<>();
        sources.put(Path.of("a/A.java"), "package " + OURS + ".a;\n\nimport " + OURS + ".b.B;\n");
        sources.put(Path.of("b/B.java"), "package " + OURS + ".b;\n\n/** {@link " + OURS + ".c.C} */\n");
        sources.put(Path.of("c/C.java"), "package " + OURS + ".c;\nimport static " + OURS + ".a.A.NAME;\n");
        sources.put(Path.of("d/D.java"), "package " + OURS + ".d;\nString s = \"" + OURS + ".a.A\";\n");

        assertThat(cycles(uses(sources)))
                .containsExactly(OURS + ".a -> " + OURS + ".b (a/A.java:3) -> " + OURS + ".c (b/B.java:3) -> " + OURS
                        + ".a (c/C.java:2)");
    }

    /** Each package's uses of the others: to package, and the first file and line that uses it. */
    private static Map<String, Map<String, String>> uses(Map<Path, String> sources) {
        Map<String, Map<String, String>> uses = new TreeMap<>();
        sources.forEach((file, text) -> {
            String from = packageOf(text);
            Map<String, String> to = uses.computeIfAbsent(from, k -> new TreeMap<>());
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].startsWith("package ")) {
                    continue;
                }
                Matcher name = OUR_NAME.matcher(withoutStrings(lines[i]));
                while (name.find()) {
                    String used = OURS + name.group(1);
                    if (!used.equals(from)) {
                        to.putIfAbsent(used, file + ":" + (i + 1));
                    }
                }
            }
        });
        return uses;
    }

    /**
     * Every cycle, once, each as {@code a -> b (where a uses b) -> ... -> a (where)}: for each package, the shortest
     * way back to it from the packages it uses, if any; a cycle found from each of its packages is said once.
     */
    private static List<String> cycles(Map<String, Map<String, String>> uses) {
        List<String> cycles = new ArrayList<>();
        Set<Set<String>> said = new HashSet<>();
        for (String start : uses.keySet()) {
            List<String> path = shortestWayBack(start, uses);
            if (path != null && said.add(new TreeSet<>(path))) {
                StringBuilder text = new StringBuilder(start);
                for (int i = 0; i < path.size(); i++) {
                    String from = i == 0 ? start : path.get(i - 1);
                    String to = path.get(i);
                    text.append(" -> ")
                            .append(to)
                            .append(" (")
                            .append(uses.get(from).get(to))
                            .append(')');
                }
                cycles.add(text.toString());
            }
        }
        return cycles;
    }

    /** The packages from {@code start} round to {@code start} again (its last element), breadth first; null if none. */
    private static List<String> shortestWayBack(String start, Map<String, Map<String, String>> uses) {
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        queue.add(start);
        while (!queue.isEmpty()) {
            String at = queue.poll();
            for (String next : uses.getOrDefault(at, Map.of()).keySet()) {
                if (next.equals(start)) {
                    List<String> path = new ArrayList<>();
                    path.add(start);
                    for (String step = at; !step.equals(start); step = cameFrom.get(step)) {
                        path.add(0, step);
                    }
                    return path;
                }
                if (!cameFrom.containsKey(next)) {
                    cameFrom.put(next, at);
                    queue.add(next);
                }
            }
        }
        return null;
    }

    private static Map<Path, String> sources() {
        Map<Path, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.put(SOURCES.relativize(file), Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(sources).as("sources under " + SOURCES.toAbsolutePath()).isNotEmpty();
        return sources;
    }

    private static String packageOf(String text) {
        for (String line : text.split("\n")) {
            Matcher found = PACKAGE.matcher(line);
            if (found.find()) {
                return found.group(1);
            }
        }
        return "";
    }

    /** A logger's name or a message may spell a class out in full: that is no use of it. */
    private static String withoutStrings(String line) {
        return STRING_LITERAL.matcher(line).replaceAll("\"\"");
    }
}
