package io.github.sockjsstomp.jar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The jar users drop into lib/ext: it must bring everything it needs and nothing JMeter already has, since
 * JMeter's loader puts lib/ before lib/ext and a second copy of a class gives mixed versions.
 */
class PluginJarIT {

    private static final List<String> JMETER_OWNED = List.of(
            "org/apache/jmeter/",
            "com/fasterxml/jackson/",
            "org/slf4j/",
            "org/apache/logging/",
            "org/apache/commons/logging/",
            "org/apache/http/",
            "org/apache/hc/",
            "jakarta/servlet/",
            "org/apache/catalina/");

    private final Path jar = Path.of(System.getProperty("plugin.jar"));
    private final Path jmeterHome = Path.of(System.getProperty("jmeter.home"));

    private static Set<String> classes(Path jarPath) throws IOException {
        Set<String> names = new HashSet<>();
        try (JarFile file = new JarFile(jarPath.toFile())) {
            file.stream()
                    .map(e -> e.getName())
                    .filter(n -> n.endsWith(".class") && !n.contains("module-info"))
                    .filter(n -> !n.startsWith("META-INF/versions/"))
                    .forEach(names::add);
        }
        return names;
    }

    @Test
    void bundlesNoPackageThatJMeterShips() throws IOException {
        Set<String> ours = classes(jar);
        assertThat(ours)
                .anyMatch(n -> n.startsWith("org/springframework/web/socket/"))
                .anyMatch(n -> n.startsWith("org/apache/tomcat/websocket/"))
                .anyMatch(n -> n.startsWith("org/HdrHistogram/"))
                .anyMatch(n -> n.startsWith("io/github/sockjsstomp/sampler/"));
        for (String prefix : JMETER_OWNED) {
            assertThat(ours).as("classes under " + prefix).noneMatch(n -> n.startsWith(prefix));
        }
        assertThat(ours)
                .as("spring-jcl is replaced by JMeter's commons-logging")
                .noneMatch(n -> n.startsWith("org/springframework/jcl/"));
    }

    @Test
    void sharesNoClassWithAnyJarOfTheJMeterDistribution() throws IOException {
        Set<String> ours = classes(jar);
        List<Path> jmeterJars = new ArrayList<>();
        for (String dir : List.of("lib", "lib/ext", "bin")) {
            try (Stream<Path> files = Files.list(jmeterHome.resolve(dir))) {
                files.filter(p -> p.toString().endsWith(".jar"))
                        .filter(p -> !p.getFileName().toString().startsWith("jmeter-sockjs-stomp"))
                        .forEach(jmeterJars::add);
            }
        }
        assertThat(jmeterJars).hasSizeGreaterThan(100);
        List<String> clashes = new ArrayList<>();
        for (Path other : jmeterJars) {
            for (String name : classes(other)) {
                if (ours.contains(name)) {
                    clashes.add(other.getFileName() + ": " + name);
                }
            }
        }
        assertThat(clashes).isEmpty();
    }

    @Test
    void registersTheSamplersAndSkipsClassScanning() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            String services = new String(
                    file.getInputStream(file.getEntry(
                                    "META-INF/services/org.apache.jmeter.protocol.java.sampler.JavaSamplerClient"))
                            .readAllBytes(),
                    StandardCharsets.UTF_8);
            assertThat(services.lines())
                    .containsExactly(
                            "io.github.sockjsstomp.sampler.StompConnectSampler",
                            "io.github.sockjsstomp.sampler.StompSendSampler",
                            "io.github.sockjsstomp.sampler.StompReceiveSampler",
                            "io.github.sockjsstomp.sampler.StompReplySampler",
                            "io.github.sockjsstomp.sampler.StompExpirySampler",
                            "io.github.sockjsstomp.sampler.StompStepsSampler");
            assertThat(file.getManifest().getMainAttributes().getValue("JMeter-Skip-Class-Scanning"))
                    .isEqualTo("true");
        }
        assertThat(jmeterHome.resolve("lib/ext").resolve(jar.getFileName()))
                .exists()
                .hasSameBinaryContentAs(jar);
    }
}
