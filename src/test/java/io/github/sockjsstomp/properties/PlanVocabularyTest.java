package io.github.sockjsstomp.properties;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.jmeter.protocol.java.sampler.JavaSamplerClient;
import org.junit.jupiter.api.Test;

/** The one list of our names is the plans' own: every {@code __P(} name of jmx/*.jmx, no more, no less. */
class PlanVocabularyTest {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "."));

    @Test
    void planPropertiesAreTheUnionOfWhatThePlansRead() throws IOException {
        Set<String> read = new TreeSet<>();
        try (Stream<Path> plans = Files.list(ROOT.resolve("jmx"))) {
            for (Path plan : plans.filter(p -> p.toString().endsWith(".jmx")).toList()) {
                read.addAll(PlanPropertyNames.in(Files.readString(plan, StandardCharsets.UTF_8)));
            }
        }
        assertThat(read).as("jmx/*.jmx read").isNotEmpty();
        assertThat(new TreeSet<>(PlanVocabulary.PLAN_PROPERTIES))
                .as("PlanVocabulary.PLAN_PROPERTIES against the __P( names of jmx/*.jmx")
                .isEqualTo(read);
    }

    @Test
    void everyRenamedNameNamesAPlanPropertyOrASamplerParameterAndSaysWhy() throws Exception {
        Set<String> current = new TreeSet<>(PlanVocabulary.PLAN_PROPERTIES);
        Path services = ROOT.resolve(
                "src/main/resources/META-INF/services/org.apache.jmeter.protocol.java.sampler.JavaSamplerClient");
        List<String> samplers = Files.readAllLines(services, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank())
                .toList();
        assertThat(samplers).isNotEmpty();
        for (String sampler : samplers) {
            JavaSamplerClient client = (JavaSamplerClient)
                    Class.forName(sampler.strip()).getDeclaredConstructor().newInstance();
            current.addAll(client.getDefaultParameters().getArgumentsAsMap().keySet());
        }
        assertThat(PlanVocabulary.RENAMED.keySet()).isEqualTo(PlanVocabulary.RENAMED_BECAUSE.keySet());
        assertThat(PlanVocabulary.RENAMED.keySet()).doesNotContainAnyElementsOf(PlanVocabulary.PLAN_PROPERTIES);
        assertThat(PlanVocabulary.RENAMED.values())
                .allSatisfy(renamed -> assertThat(renamed).isIn(current));
    }

    @Test
    void everyJvmWideSettingTheDocsNameIsKnown() throws IOException {
        Pattern setting = Pattern.compile("sockjsstomp\\.([a-z][A-Za-z]+)");
        Set<String> named = new TreeSet<>();
        for (Path doc : docs()) {
            Matcher matcher = setting.matcher(Files.readString(doc, StandardCharsets.UTF_8));
            while (matcher.find()) {
                named.add(matcher.group(1));
            }
        }
        named.removeAll(Set.of(
                "client",
                "sampler",
                "loops",
                "threadusers",
                "samples",
                "steps",
                "timing",
                "warmup",
                "properties",
                "demo",
                "apps",
                "broker",
                "plans"));
        named.remove(PlanVocabulary.LOG_FILE_SYSTEM_PROPERTY.substring(PlanVocabulary.JVM_WIDE_PREFIX.length()));
        assertThat(PlanVocabulary.JVM_WIDE).as("settings the docs name").containsAll(named);
    }

    @Test
    void everyJvmWideSettingTheCodeReadsIsKnown() throws IOException {
        Pattern read = Pattern.compile("(?:property\\(\\w+, |(?:PROPERTY_PREFIX|JVM_WIDE_PREFIX) \\+ )\"([A-Za-z]+)\"");
        Set<String> names = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(ROOT.resolve("src/main/java"))) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher matcher = read.matcher(Files.readString(source, StandardCharsets.UTF_8));
                while (matcher.find()) {
                    names.add(matcher.group(1));
                }
            }
        }
        assertThat(names).as("read in src/main").isNotEmpty();
        assertThat(PlanVocabulary.JVM_WIDE).containsAll(names);
    }

    private static Set<Path> docs() throws IOException {
        Set<Path> docs = new TreeSet<>(Set.of(ROOT.resolve("README.md"), ROOT.resolve("jmeter-config/README.md")));
        Path dir = ROOT.resolve("docs");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> pages = Files.list(dir)) {
                pages.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
            }
        }
        return docs;
    }
}
