package io.github.sockjsstomp.plans;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A Maven local repository inside the build directory, for the tests that run Maven themselves: what they install
 * and download lands there, never in the user's own repository. That one (the build's
 * {@code settings.localRepository}) is read as a remote repository ahead of Maven Central, so what the user's
 * builds have fetched is copied from disk instead of downloaded, and only what it lacks comes from Central.
 */
final class BuildRepository {

    private BuildRepository() {}

    /** The build directory's local repository (target/it-m2), kept across runs until {@code mvn clean}. */
    static Path local() {
        return Path.of(System.getProperty("build.directory", "target"))
                .toAbsolutePath()
                .resolve("it-m2");
    }

    /**
     * Puts a jar into the local repository with the pom it is published with (a release's), as {@code mvn install}
     * lays them out: what the Maven run that follows resolves is the same, without a Maven of its own to start for it
     * (seconds of CPU).
     */
    static void install(Path jar, Path pom, String groupId, String artifactId, String version) throws IOException {
        Path where =
                local().resolve(groupId.replace('.', '/')).resolve(artifactId).resolve(version);
        Files.createDirectories(where);
        String name = artifactId + "-" + version;
        Files.copy(jar, where.resolve(name + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(pom, where.resolve(name + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** A settings file in dir that puts the user's local repository first among the remote ones. */
    static Path settings(Path dir) throws IOException {
        Path users = Path.of(System.getProperty(
                        "user.repository",
                        Path.of(System.getProperty("user.home"), ".m2", "repository")
                                .toString()))
                .toAbsolutePath();
        String repository = """
                <id>users-repository</id>
                <url>%s</url>
                <releases><enabled>true</enabled><updatePolicy>never</updatePolicy></releases>
                <snapshots><enabled>false</enabled></snapshots>
                """.formatted(users.toUri());
        String xml = """
                <settings>
                  <profiles>
                    <profile>
                      <id>users-repository-first</id>
                      <repositories><repository>%1$s</repository></repositories>
                      <pluginRepositories><pluginRepository>%1$s</pluginRepository></pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>users-repository-first</activeProfile></activeProfiles>
                </settings>
                """.formatted(repository);
        return Files.writeString(dir.resolve("settings.xml"), xml);
    }
}
