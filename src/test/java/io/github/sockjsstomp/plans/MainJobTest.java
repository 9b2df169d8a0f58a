package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README's two commands are what CI runs: the main job broke at its last step once while every test passed,
 * because nothing ran it. CI runs both, the main job shortened only through the overrides README documents, and
 * the defaults README states for those overrides are the script's.
 */
class MainJobTest {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "."));
    private static final Pattern OVERRIDE = Pattern.compile("`(DEMO_[A-Z_]+)` \\(([^)]*)\\)");
    private static final Pattern SCRIPT_DEFAULT = Pattern.compile("\\$\\{(DEMO_[A-Z_]+):-([^}]*)}");

    @Test
    void ciRunsReadmesTwoCommandsAndShortensTheMainJobOnlyThroughItsDocumentedOverrides() throws IOException {
        List<String> commands = twoCommands();
        assertThat(commands).containsExactly("make demo", "make test");

        List<String> ciLines = Files.readAllLines(ROOT.resolve(".ci/run")).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();
        assertThat(ciLines).as(".ci/run runs README's test command").contains("make test");
        String demoLine = ciLines.stream()
                .filter(line -> line.endsWith("make demo"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(".ci/run does not run README's main job: " + ciLines));
        Map<String, String> documented = documentedOverrides();
        for (String word : demoLine.substring(0, demoLine.length() - "make demo".length())
                .strip()
                .split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            String name = word.substring(0, word.indexOf('='));
            assertThat(documented)
                    .as(".ci/run changes the main job only through README's overrides: " + word)
                    .containsKey(name);
        }
    }

    @Test
    void readmeStatesTheMainJobsDefaultsAsTheScriptHasThem() throws IOException {
        Map<String, String> documented = documentedOverrides();
        assertThat(documented)
                .containsKeys("DEMO_USERS", "DEMO_DURATION", "DEMO_MESSAGES_PER_SECOND", "DEMO_TRANSPORT");
        String script = Files.readString(ROOT.resolve("scripts/demo.sh"));
        Map<String, String> inScript = new LinkedHashMap<>();
        Matcher m = SCRIPT_DEFAULT.matcher(script);
        while (m.find()) {
            inScript.putIfAbsent(m.group(1), m.group(2));
        }
        documented.forEach((name, text) -> {
            String scriptDefault = inScript.get(name);
            assertThat(scriptDefault).as("scripts/demo.sh reads " + name).isNotNull();
            // README writes "(virtual users; 20, on 2 threads)" or "(`auto`)": the default follows the unit.
            assertThat(text)
                    .as("README's default for " + name)
                    .containsPattern("(^|; |`)" + Pattern.quote(scriptDefault) + "\\b");
        });
    }

    /** The commands of README's block under "The two commands", comments dropped. */
    private static List<String> twoCommands() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int section = readme.indexOf("## The two commands");
        assertThat(section).as("README has its two commands").isNotNegative();
        int start = readme.indexOf("```sh\n", section) + "```sh\n".length();
        int end = readme.indexOf("```", start);
        List<String> commands = new ArrayList<>();
        for (String line : readme.substring(start, end).split("\n")) {
            String command = line.replaceAll("#.*", "").strip();
            if (!command.isEmpty()) {
                commands.add(command);
            }
        }
        return commands;
    }

    /** README's {@code `DEMO_X` (unit; default)} overrides of the main job, by name. */
    private static Map<String, String> documentedOverrides() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int section = readme.indexOf("## The two commands");
        String text = readme.substring(section, readme.indexOf("\n## ", section + 1));
        Map<String, String> overrides = new LinkedHashMap<>();
        Matcher m = OVERRIDE.matcher(text.replace('\n', ' '));
        while (m.find()) {
            overrides.put(m.group(1), m.group(2));
        }
        return overrides;
    }
}
