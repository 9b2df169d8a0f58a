package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.release.PomVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code make release} as docs/releasing.md gives it, on a copy of the checkout (its own target/): the files a
 * Maven Central release publishes, staged as a file repository, and the metadata of the pom among them. The tests,
 * the formatter and the style checks are skipped here ({@code RELEASE_FLAGS}): the build that runs this test runs
 * them.
 */
class ReleaseIT {

    private static final String GROUP_PATH = "io/github/sockjsstomp/jmeter-sockjs-stomp";
    /** What the build needs of the checkout: no test, plan or doc. */
    private static final List<String> CHECKOUT =
            List.of("pom.xml", "Makefile", "checkstyle.xml", ".mvn", "scripts/rabbitmq-install.sh", "src/main");

    @TempDir
    Path dir;

    @Test
    void makeReleaseStagesTheJarSourcesJavadocAndAPomWithCentralsMetadataAndNoDependencies() throws Exception {
        String version = System.getProperty("project.version", "0.1.0");
        Path checkout = copyCheckout(dir.resolve("checkout"));
        String output = make(
                checkout,
                "release",
                "MVN_FLAGS=-B -ntp -s " + BuildRepository.settings(dir) + " -Dmaven.repo.local="
                        + BuildRepository.local(),
                "RELEASE_FLAGS=-Dmaven.test.skip=true -DskipITs=true -Dspotless.check.skip=true -Dcheckstyle.skip=true");

        Path staging = checkout.resolve("target/staging");
        String name = "jmeter-sockjs-stomp-" + version;
        String at = GROUP_PATH + "/" + version + "/";
        Set<String> published = new TreeSet<>();
        for (String file : List.of(name + ".jar", name + "-sources.jar", name + "-javadoc.jar", name + ".pom")) {
            published.add(at + file);
            published.add(at + file + ".md5");
            published.add(at + file + ".sha1");
        }
        for (String metadata : List.of("maven-metadata.xml", "maven-metadata.xml.md5", "maven-metadata.xml.sha1")) {
            published.add(GROUP_PATH + "/" + metadata);
        }
        assertThat(files(staging)).as(output).containsExactlyElementsOf(published);
        // make release lists them when done
        assertThat(output).contains("release: staged in target/staging:", "./" + at + name + ".jar");
        for (String file : List.of(name + ".jar", name + "-sources.jar", name + "-javadoc.jar", name + ".pom")) {
            Path artifact = staging.resolve(at + file);
            assertThat(Files.readString(staging.resolve(at + file + ".sha1")).strip())
                    .as(file + ".sha1")
                    .isEqualTo(sha1(artifact));
        }

        Path pom = staging.resolve(at + name + ".pom");
        for (String required : List.of(
                "/project/name",
                "/project/description",
                "/project/url",
                "/project/licenses/license/name",
                "/project/licenses/license/url",
                "/project/developers/developer/name",
                "/project/scm/connection",
                "/project/scm/developerConnection",
                "/project/scm/url")) {
            assertThat(PomVersion.text(pom, required)).as(required).isNotBlank();
        }
        assertThat(PomVersion.text(pom, "concat(/project/groupId, ':', /project/artifactId, ':', /project/version)"))
                .isEqualTo("io.github.sockjsstomp:jmeter-sockjs-stomp:" + version);
        // The jmeter-maven-plugin copies an extension's direct dependencies into JMeter's lib/, whatever their scope.
        assertThat(PomVersion.text(pom, "count(//dependency)")).isEqualTo("0");
        assertThat(PomVersion.text(pom, "count(/project/build | /project/profiles | /project/repositories)"))
                .isEqualTo("0");

        try (JarFile jar = new JarFile(staging.resolve(at + name + ".jar").toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Implementation-Version"))
                    .isEqualTo(version);
            assertThat(jar.getEntry("io/github/sockjsstomp/sampler/StompSendSampler.class"))
                    .isNotNull();
            assertThat(jar.getEntry("org/springframework/web/socket/WebSocketSession.class"))
                    .as("bundled Spring")
                    .isNotNull();
        }
        try (JarFile sources =
                new JarFile(staging.resolve(at + name + "-sources.jar").toFile())) {
            assertThat(sources.getEntry("io/github/sockjsstomp/sampler/StompSendSampler.java"))
                    .isNotNull();
        }
        try (JarFile javadoc =
                new JarFile(staging.resolve(at + name + "-javadoc.jar").toFile())) {
            assertThat(javadoc.getEntry("index.html")).isNotNull();
            assertThat(javadoc.getEntry("io/github/sockjsstomp/sampler/StompSendSampler.html"))
                    .isNotNull();
        }
    }

    private static Path copyCheckout(Path checkout) throws IOException {
        Path root = PlanRun.projectRoot();
        for (String part : CHECKOUT) {
            Path from = root.resolve(part);
            try (Stream<Path> tree = Files.walk(from)) {
                for (Path source : tree.toList()) {
                    Path target = checkout.resolve(root.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(source, target);
                    }
                }
            }
        }
        return checkout;
    }

    private static Set<String> files(Path root) throws IOException {
        try (Stream<Path> tree = Files.walk(root)) {
            return tree.filter(Files::isRegularFile)
                    .map(f -> root.relativize(f).toString())
                    .collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    private static String sha1(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(Files.readAllBytes(file)));
    }

    private String make(Path checkout, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("make", "--no-print-directory", "-C", checkout.toString()));
        command.addAll(List.of(args));
        Path output = dir.resolve("make.txt");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(checkout.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // Maven's JVM lives a minute at most: C1 only and the serial collector, as for every JVM the tests start.
        builder.environment()
                .merge(
                        "JAVA_TOOL_OPTIONS",
                        "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData",
                        (outer, ours) -> outer + " " + ours);
        // A build of the plugin: compile, shade, javadoc (half a minute of CPU), on a machine the other test classes
        // share.
        int exit = PlanRun.waitFor(builder.start(), command, output, 600);
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(exit).as("%s\n%s", command, printed).isZero();
        return printed;
    }
}
