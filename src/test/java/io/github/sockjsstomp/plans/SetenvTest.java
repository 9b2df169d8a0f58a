package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * jmeter-config/setenv.sh as bin/jmeter sources it: its collector flags follow the java it will start, because
 * the refinement flags that pay on Java 8-19 stop a Java 24+ JVM from starting at all.
 */
class SetenvTest {

    private static final Path SETENV = Paths.get("jmeter-config/setenv.sh").toAbsolutePath();
    private static final List<String> REFINEMENT = List.of(
            "-XX:-G1UseAdaptiveConcRefinement",
            "-XX:G1ConcRefinementGreenZone=256",
            "-XX:G1ConcRefinementYellowZone=512",
            "-XX:G1ConcRefinementRedZone=1024");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "java version \"1.8.0_392\"| true",
                "openjdk version \"11.0.22\" 2024-01-16| true",
                "openjdk version \"17.0.15\" 2025-04-15| true",
                "openjdk version \"19.0.2\" 2023-01-17| true",
                "openjdk version \"20\" 2023-03-21| false",
                "openjdk version \"21.0.5\" 2024-10-15 LTS| false",
                "openjdk version \"25\" 2025-09-16| false",
                "openjdk version \"26-ea\" 2026-03-17| false",
            })
    void refinementFlagsOnlyWhereTheJavaHasThem(String versionLine, boolean expected) throws Exception {
        Path home = fakeJavaHome(versionLine);

        List<String> flags = gcAlgo(Map.of("JAVA_HOME", home.toString()));

        assertThat(flags)
                .startsWith("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100", "-XX:G1ReservePercent=20", "-XX:NewRatio=2");
        if (expected) {
            assertThat(flags).endsWith(REFINEMENT.toArray(String[]::new));
        } else {
            assertThat(flags).doesNotContainAnyElementsOf(REFINEMENT);
        }
    }

    @Test
    void aGcAlgoFromTheEnvironmentIsKeptAndNoJavaIsStarted() throws Exception {
        Path home = fakeJavaHome("openjdk version \"17.0.15\" 2025-04-15");

        List<String> flags = gcAlgo(Map.of("JAVA_HOME", home.toString(), "GC_ALGO", "-XX:+UseParallelGC"));

        assertThat(flags).containsExactly("-XX:+UseParallelGC");
        assertThat(home.resolve("started")).doesNotExist();
    }

    @Test
    void withNoJavaTheBaseFlagsAndNoError() throws Exception {
        // a PATH with the tools the script uses but no java
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : List.of("sed", "head")) {
            Files.createSymbolicLink(bin.resolve(tool), which(tool));
        }

        List<String> flags = gcAlgo(Map.of("PATH", bin.toString()));

        assertThat(flags)
                .containsExactly(
                        "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100", "-XX:G1ReservePercent=20", "-XX:NewRatio=2");
    }

    /** The java running these tests and every other JDK installed beside it (Debian's /usr/lib/jvm). */
    static Stream<Path> installedJavaHomes() throws IOException {
        Set<Path> homes = new LinkedHashSet<>();
        homes.add(Paths.get(System.getProperty("java.home")).toRealPath());
        Path jvms = Paths.get("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> installed = Files.list(jvms)) {
                installed
                        .filter(home -> Files.isExecutable(home.resolve("bin/java")))
                        .map(home -> {
                            try {
                                return home.toRealPath();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        })
                        .sorted()
                        .forEach(homes::add);
            }
        }
        return homes.stream();
    }

    @ParameterizedTest
    @MethodSource("installedJavaHomes")
    void aRealJavaStartsWithTheFlagsItIsGiven(Path javaHome) throws Exception {
        List<String> flags = gcAlgo(Map.of("JAVA_HOME", javaHome.toString()));

        List<String> command = new ArrayList<>();
        command.add(javaHome.resolve("bin/java").toString());
        command.addAll(flags);
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(said).isZero();
        assertThat(said).as("no flag deprecated or ignored").doesNotContainIgnoringCase("warning");
        Matcher version = Pattern.compile("version \"(?:1\\.)?(\\d+)").matcher(said);
        assertThat(version.find()).as(said).isTrue();
        if (Integer.parseInt(version.group(1)) < 20) {
            assertThat(flags).containsAll(REFINEMENT);
        } else {
            assertThat(flags).doesNotContainAnyElementsOf(REFINEMENT);
        }
    }

    private Path fakeJavaHome(String versionLine) throws IOException {
        Path home = Files.createDirectories(dir.resolve("jdk"));
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        // what java -version prints (on stderr), and a mark that it was started
        Files.writeString(
                java,
                "#!/bin/sh\n: > \"$(dirname \"$0\")/../started\"\necho '" + versionLine
                        + "' >&2\necho 'OpenJDK Runtime Environment' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    /** GC_ALGO after sourcing setenv.sh in a clean environment plus the given variables. */
    private static List<String> gcAlgo(Map<String, String> env) throws Exception {
        ProcessBuilder sh =
                new ProcessBuilder("/bin/sh", "-c", ". \"$1\" && printf %s \"$GC_ALGO\"", "sh", SETENV.toString());
        sh.environment().clear();
        sh.environment().put("PATH", System.getenv("PATH"));
        sh.environment().putAll(env);
        sh.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = sh.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("setenv.sh sourced").isZero();
        return Arrays.asList(out.trim().split("\\s+"));
    }

    private static Path which(String tool) {
        for (String entry : System.getenv("PATH").split(":")) {
            Path candidate = Paths.get(entry, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(tool + " not on PATH");
    }
}
