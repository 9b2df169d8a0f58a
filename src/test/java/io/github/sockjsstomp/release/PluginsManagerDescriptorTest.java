package io.github.sockjsstomp.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository's entry for JMeter's Plugins Manager ({@code plugins-manager/jmeter-sockjs-stomp.json}), checked
 * against the rules of the Plugins Manager's repository schema and against the release it describes.
 *
 * <p>The schema is {@code repo_schema.json} of the Plugins Manager's repository (undera/jmeter-plugins), which its
 * site build validates every repository file against with Python's jsonschema before it publishes them. The builds
 * here reach no repository but the package registries, so its rules are restated in {@link RepositorySchema}; the
 * Plugins Manager's own parser (kg.apc:jmeter-plugins-manager 1.3) reads the same entry in {@code PluginsManagerIT},
 * which installs the plugin through it.
 */
class PluginsManagerDescriptorTest {

    static final Path DESCRIPTOR = Path.of("plugins-manager/jmeter-sockjs-stomp.json");
    private static final Path SERVICES =
            Path.of("src/main/resources/META-INF/services/org.apache.jmeter.protocol.java.sampler.JavaSamplerClient");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDescriptorKeepsThePluginsManagersRepositorySchema() throws IOException {
        assertThat(RepositorySchema.violations(JSON.readTree(DESCRIPTOR.toFile())))
                .isEmpty();
    }

    @Test
    void itsVersionIsThePomsAndItsDownloadTheJarMavenCentralWillServe() throws IOException {
        JsonNode entry = JSON.readTree(DESCRIPTOR.toFile()).get(0);
        String version = PomVersion.of(Path.of("pom.xml"));
        assertThat(entry.get("id").asText()).isEqualTo("jmeter-sockjs-stomp");
        JsonNode release = entry.get("versions").get(version);
        assertThat(release).as("versions.%s", version).isNotNull();
        // The Plugins Manager reads an installed plugin's version from its jar's file name.
        assertThat(release.get("downloadUrl").asText())
                .isEqualTo(
                        "https://repo1.maven.org/maven2/io/github/sockjsstomp/jmeter-sockjs-stomp/%1$s/"
                                + "jmeter-sockjs-stomp-%1$s.jar",
                        version);
        assertThat(release.get("changes").asText()).isNotBlank();
        List<String> depends = new ArrayList<>();
        release.get("depends").forEach(d -> depends.add(d.asText()));
        assertThat(depends).containsExactlyInAnyOrder("jmeter-core", "jmeter-java");
    }

    @Test
    void itsComponentsAreTheSamplersTheJarRegisters() throws IOException {
        JsonNode entry = JSON.readTree(DESCRIPTOR.toFile()).get(0);
        List<String> components = new ArrayList<>();
        entry.get("componentClasses").forEach(c -> components.add(c.asText()));
        List<String> registered = Files.readAllLines(SERVICES, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .toList();
        assertThat(components).containsExactlyElementsOf(registered);
        assertThat(components).contains(entry.get("markerClass").asText());
    }

    @Test
    void everyVersionItListsHasItsSectionInTheChangelog() throws IOException {
        String changelog = Files.readString(Path.of("CHANGELOG.md"));
        JSON.readTree(DESCRIPTOR.toFile())
                .get(0)
                .get("versions")
                .fieldNames()
                .forEachRemaining(version -> assertThat(changelog).contains("\n## [" + version + "] - "));
    }

    /** A change to a good entry, and what the check must say of it. */
    private record Breakage(String what, Consumer<ObjectNode> change, String said) {}

    /** The schema's rules, each broken once: a check that could not fail would prove nothing. */
    @Test
    void eachRuleOfTheSchemaNamesWhatBreaksIt() throws IOException {
        ObjectNode good = (ObjectNode) JSON.readTree(DESCRIPTOR.toFile()).get(0);
        List<Breakage> breakages = List.of(
                new Breakage("no description", e -> e.remove("description"), "[0]: no 'description'"),
                new Breakage("unknown field", e -> e.put("icon", "x"), "[0]: 'icon' is not a field of an entry"),
                new Breakage("number as marker", e -> e.put("markerClass", 3), "[0].markerClass: not a string or null"),
                new Breakage(
                        "number as component",
                        e -> e.putArray("componentClasses").add("a").add(1),
                        "[0].componentClasses[1]: not a string"),
                new Breakage("string as boolean", e -> e.put("canUninstall", "yes"), "[0].canUninstall: not a boolean"),
                new Breakage(
                        "version without download",
                        e -> e.putObject("versions").putObject("0.1.0").put("changes", "c"),
                        "[0].versions.0.1.0: no 'downloadUrl'"),
                new Breakage(
                        "depends as string",
                        e -> e.putObject("versions")
                                .putObject("0.1.0")
                                .put("downloadUrl", "u")
                                .put("depends", "jmeter-core"),
                        "[0].versions.0.1.0.depends: not an array"),
                new Breakage(
                        "unknown version field",
                        e -> e.putObject("versions")
                                .putObject("0.1.0")
                                .put("downloadUrl", "u")
                                .put("sha1", "x"),
                        "[0].versions.0.1.0: 'sha1' is not a field of a version"),
                new Breakage(
                        "changes of the JMeter-bound version",
                        e -> e.putObject("versions")
                                .putObject("")
                                .put("downloadUrl", "u")
                                .put("changes", "c"),
                        "[0].versions.'': 'changes' is not a field of a version"),
                new Breakage(
                        "version key with a v",
                        e -> e.putObject("versions").putObject("v0.1.0").put("downloadUrl", "u"),
                        "[0].versions.v0.1.0: not a version key (digits and dots, an optional -suffix)"));
        for (Breakage breakage : breakages) {
            ObjectNode entry = good.deepCopy();
            breakage.change().accept(entry);
            assertThat(RepositorySchema.violations(JSON.createArrayNode().add(entry)))
                    .as(breakage.what())
                    .contains(breakage.said());
        }
        assertThat(RepositorySchema.violations(JSON.readTree("{}"))).containsExactly("the file is not a JSON array");
    }

    /** The version a version key must look like, as the schema's pattern has it. */
    @Test
    void aVersionKeyIsDigitsAndDotsWithAnOptionalSuffix() {
        Pattern key = RepositorySchema.VERSION_KEY;
        assertThat(Set.of("0.1.0", "1", "2.0.1-beta", "1.0-SNAPSHOT"))
                .allMatch(v -> key.matcher(v).matches());
        assertThat(Set.of("v0.1.0", "0.1.0.", "latest", "0.1.0-rc.1"))
                .noneMatch(v -> key.matcher(v).matches());
        assertThatThrownBy(() -> PomVersion.of(Path.of("no-such-pom.xml"))).isInstanceOf(IOException.class);
    }
}
