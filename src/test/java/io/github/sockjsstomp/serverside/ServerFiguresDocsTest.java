package io.github.sockjsstomp.serverside;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.sampler.StompConnectSampler;
import io.github.sockjsstomp.sampler.StompReceiveSampler;
import io.github.sockjsstomp.sampler.StompSendSampler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What docs/server-figures.md says of each session's cost is what the code does: the lines it shows are the recorded
 * runs' own (which {@link RecordedRunTest} and the analysis tool's tests replay), and the {@code compression}
 * parameter it names has the default and values it states.
 */
class ServerFiguresDocsTest {

    private static final Path PAGE =
            Path.of(System.getProperty("project.root", ".")).resolve("docs/server-figures.md");

    @ParameterizedTest
    @ValueSource(strings = {"greetings", "connect", "connect-off"})
    void thePageShowsTheLinesTheRecordedRunSaid(String name) throws Exception {
        String page = Files.readString(PAGE);
        String said = Files.readString(RecordedRunTest.RUNS.resolve(name).resolve("console.txt"));
        assertThat(page).contains("`analysis/tests/java_runs/" + name + "`").contains("```\n" + said + "```\n");
    }

    @Test
    void compressionHasTheDefaultAndValuesThePageStates() throws Exception {
        Matcher stated = Pattern.compile("parameter `compression`, `(\\w+)` \\(the default[^)]*\\) or `(\\w+)`")
                .matcher(Files.readString(PAGE).replaceAll("\\s+", " "));
        assertThat(stated.find())
                .as("the page states compression's default and values")
                .isTrue();
        assertThat(List.of(stated.group(1), stated.group(2))).containsExactly("browser", "off");
        List<AbstractJavaSamplerClient> samplers =
                List.of(new StompConnectSampler(), new StompReceiveSampler(), new StompSendSampler());
        List<Map<String, String>> parameters = samplers.stream()
                .map(s -> s.getDefaultParameters().getArgumentsAsMap())
                .filter(p -> p.containsKey("compression"))
                .toList();
        assertThat(parameters)
                .as("the samplers that connect take it")
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).containsEntry("compression", stated.group(1)));
    }
}
