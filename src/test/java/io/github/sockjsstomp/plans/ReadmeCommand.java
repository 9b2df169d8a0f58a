package io.github.sockjsstomp.plans;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One headless JMeter command line of the docs, as a user copies it, and what it asks for: the plan, its
 * {@code -J}/{@code -G} properties, the other options. Lines that ask for the same are one invocation: {@link
 * #where} lists every place it is written.
 */
record ReadmeCommand(
        String text, List<String> where, String plan, Map<String, String> properties, List<String> options) {

    private static final Pattern COMMAND = Pattern.compile("(?:[\\w./-]*/)?jmeter -n -t (?:[^`\\n\\\\]|\\\\\\n)+");

    /** The docs whose command lines are users' first runs: README.md, docs/*.md, jmx/README.md. */
    static List<Path> docs(Path root) throws IOException {
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("jmx/README.md")));
        Path dir = root.resolve("docs");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> pages = Files.list(dir)) {
                pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
            }
        }
        return docs;
    }

    /** Every distinct invocation written in the docs, in the order first written. */
    static List<ReadmeCommand> all(Path root) throws IOException {
        Map<String, ReadmeCommand> byInvocation = new LinkedHashMap<>();
        for (Path doc : docs(root)) {
            String markdown = Files.readString(doc, StandardCharsets.UTF_8);
            Matcher matcher = COMMAND.matcher(markdown);
            while (matcher.find()) {
                String text = matcher.group()
                        .replace("\\\n", " ")
                        .replaceAll("\\s+", " ")
                        .trim();
                long line = markdown.substring(0, matcher.start())
                                .chars()
                                .filter(c -> c == '\n')
                                .count()
                        + 1;
                ReadmeCommand command = parse(text, root.relativize(doc) + ":" + line);
                byInvocation.merge(command.invocation(), command, ReadmeCommand::alsoAt);
            }
        }
        return List.copyOf(byInvocation.values());
    }

    static ReadmeCommand parse(String text, String where) {
        List<String> shellWords = words(text);
        String plan = null;
        Map<String, String> properties = new TreeMap<>();
        List<String> options = new ArrayList<>();
        for (int i = 1; i < shellWords.size(); i++) {
            String word = shellWords.get(i);
            if (word.equals("-t") && i + 1 < shellWords.size()) {
                plan = shellWords.get(++i).replaceFirst("^.*/", "").replaceFirst("\\.jmx$", "");
            } else if ((word.startsWith("-J") || word.startsWith("-G")) && word.contains("=")) {
                properties.put(word.substring(2, word.indexOf('=')), word.substring(word.indexOf('=') + 1));
            } else if (!word.equals("-n")) {
                options.add(word);
            }
        }
        return new ReadmeCommand(text, List.of(where), plan, properties, options);
    }

    /** What the line asks JMeter for, whatever the order of its options. */
    String invocation() {
        return plan + " " + properties + " " + options;
    }

    ReadmeCommand alsoAt(ReadmeCommand same) {
        List<String> places = new ArrayList<>(where);
        places.addAll(same.where);
        return new ReadmeCommand(text, places, plan, properties, options);
    }

    /**
     * A line for remote engines ({@code -R}, {@code -r}), another host, or none named (no port, endpoint or login
     * steps of ours). RabbitMQ's lines (Web-STOMP's port 15674) run against a node of the tests' own.
     */
    boolean elsewhere() {
        String host = properties.getOrDefault("host", "127.0.0.1");
        boolean named = properties.containsKey("port")
                || properties.containsKey("endpoint")
                || properties.containsKey("indexPath")
                || "greetings".equals(plan);
        return !host.equals("127.0.0.1") || options.contains("-R") || options.contains("-r") || !named;
    }

    /**
     * Shell words: blanks split, single and double quotes group, and so does a command substitution {@code $(...)}
     * (kept as written), as bash reads these lines.
     */
    static List<String> words(String text) {
        List<String> shellWords = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        int substitution = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (substitution > 0) {
                word.append(c);
                if (c == '(') {
                    substitution++;
                } else if (c == ')') {
                    substitution--;
                }
            } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '(') {
                word.append("$(");
                i++;
                substitution = 1;
                inWord = true;
            } else if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < text.length()) {
                word.append(text.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    shellWords.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            shellWords.add(word.toString());
        }
        return shellWords;
    }

    @Override
    public String toString() {
        return String.join(", ", where) + ": " + text;
    }
}
