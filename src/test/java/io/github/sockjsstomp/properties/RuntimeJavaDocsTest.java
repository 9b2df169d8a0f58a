package io.github.sockjsstomp.properties;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java a user's JMeter must run on, as the docs state it, is the one the jar is compiled for: pom.xml's
 * {@code maven.compiler.release}. JMeter 5.6.3 itself starts on Java 8, so nothing else tells a user that a JMeter
 * on an older Java cannot load the plugin.
 */
class RuntimeJavaDocsTest {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "."));
    private static final Pattern RELEASE =
            Pattern.compile("<maven\\.compiler\\.release>(\\d+)</maven\\.compiler\\.release>");
    private static final Pattern STATED = Pattern.compile("Java (\\d+) or later");
    private static final Pattern REQUIREMENT = Pattern.compile("JMeter must run on Java (\\d+) or later");

    @Test
    void readmeStatesTheJarsJavaReleaseAsWhatJMeterMustRunOn() throws IOException {
        Matcher stated = REQUIREMENT.matcher(read(ROOT.resolve("README.md")).replaceAll("\\s+", " "));
        assertThat(stated.find())
                .as("README.md says '%s'", REQUIREMENT.pattern())
                .isTrue();
        assertThat(stated.group(1))
                .as("the Java JMeter must run on, per README.md")
                .isEqualTo(compilerRelease());
    }

    @Test
    void everyPageThatStatesARunTimeJavaStatesTheJarsRelease() throws IOException {
        String release = compilerRelease();
        List<String> stated = new ArrayList<>();
        for (Path page : pages()) {
            Matcher matcher = STATED.matcher(read(page).replaceAll("\\s+", " "));
            while (matcher.find()) {
                stated.add(ROOT.relativize(page) + ": " + matcher.group());
            }
        }
        assertThat(stated)
                .as("'Java N or later' in README.md and docs/*.md")
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line).endsWith("Java " + release + " or later"));
    }

    private static String compilerRelease() throws IOException {
        Matcher matcher = RELEASE.matcher(read(ROOT.resolve("pom.xml")));
        assertThat(matcher.find()).as("pom.xml sets maven.compiler.release").isTrue();
        return matcher.group(1);
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
