package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the docs say of each plan's rows is what the plan does: a plan that times messages has its replies thread
 * (a row per message, on by default, labelled as the plan writes the destination) and its senders' rows follow the
 * same property; its section in jmx/README.md, the property pages and README's GUI section say so, and no section
 * of a plan without reply rows claims them.
 */
class PlanRowsDocsTest {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "."));
    private static final List<String> PLANS = List.of("connect", "send", "echo", "greetings", "chat", "push");
    private static final Pattern REPLY_SAMPLES_ARGUMENT = Pattern.compile(
            "<stringProp name=\"Argument.name\">replySamples</stringProp>\\s*<stringProp name=\"Argument.value\">"
                    + "([^<]*)</stringProp>");

    @Test
    void everyPlanThatTimesMessagesMakesARowPerMessageByDefaultAndItsSectionSaysSo() throws IOException {
        String jmxReadme = read("jmx/README.md");
        for (String plan : PLANS) {
            String xml = read("jmx/" + plan + ".jmx");
            boolean timesMessages = xml.contains("io.github.sockjsstomp.sampler.StompSendSampler");
            String replies = repliesThreadGroup(xml);
            assertThat(replies != null)
                    .as("%s.jmx times messages: it has a thread group 'replies' with the replies sampler", plan)
                    .isEqualTo(timesMessages);
            String section = section(jmxReadme, plan);
            if (replies == null) {
                assertThat(section).as("jmx/README.md on %s.jmx", plan).doesNotContain("`reply ");
                continue;
            }
            assertThat(replies)
                    .contains("io.github.sockjsstomp.sampler.StompReplySampler")
                    .contains("__P(replySamples,true)")
                    .contains("${__P(replyLabel,destination)}");
            Matcher senders = REPLY_SAMPLES_ARGUMENT.matcher(xml);
            int found = 0;
            while (senders.find()) {
                found++;
                assertThat(senders.group(1))
                        .as("%s.jmx: its senders' rows follow the replies thread", plan)
                        .isEqualTo("${__P(replySamples,true)}");
            }
            assertThat(found)
                    .as("%s.jmx: senders that keep their rows out", plan)
                    .isPositive();
            assertThat(section)
                    .as("jmx/README.md on %s.jmx names its reply rows", plan)
                    .containsPattern("`reply (<destination>|/)");
        }
    }

    @Test
    void thePropertyPagesListThePlansWithReplyRows() throws IOException {
        Set<String> withRows = new TreeSet<>();
        for (String plan : PLANS) {
            if (repliesThreadGroup(read("jmx/" + plan + ".jmx")) != null) {
                withRows.add(plan);
            }
        }
        String properties = read("docs/properties.md");
        for (String property : List.of("replySamples", "replyLabel")) {
            Matcher row = Pattern.compile("(?m)^\\| `" + property + "` \\| ([^|]+) \\|")
                    .matcher(properties);
            assertThat(row.find()).as("docs/properties.md has %s", property).isTrue();
            Set<String> listed = Arrays.stream(row.group(1).split(","))
                    .map(String::strip)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(listed)
                    .as("docs/properties.md: the plans that read %s", property)
                    .isEqualTo(withRows);
        }
    }

    @Test
    void readmesGuiSectionNamesTheRowsOfThePlanItOpens() throws IOException {
        String readme = read("README.md");
        String gui = readme.substring(readme.indexOf("## Smoke test in the GUI"), readme.indexOf("## Headless run"));
        Matcher opened = Pattern.compile("-t jmx/(\\w+)\\.jmx").matcher(gui);
        assertThat(opened.find()).isTrue();
        String xml = read("jmx/" + opened.group(1) + ".jmx");
        Matcher destination = Pattern.compile("__P\\(destination,([^)]*)\\)").matcher(xml);
        assertThat(destination.find()).isTrue();
        assertThat(gui)
                .as("the GUI section names the rows a GUI user sees")
                .contains("`reply " + destination.group(1) + "`")
                .contains("SEND")
                .contains("response data");
    }

    /** The thread group named 'replies' and what it holds, up to the next thread group; null if there is none. */
    private static String repliesThreadGroup(String xml) {
        int start = xml.indexOf("testclass=\"ThreadGroup\" testname=\"replies\"");
        if (start < 0) {
            return null;
        }
        int next = xml.indexOf("<ThreadGroup ", start);
        return xml.substring(start, next < 0 ? xml.length() : next);
    }

    /** jmx/README.md's section of a plan, from its heading to the next. */
    private static String section(String readme, String plan) {
        int start = readme.indexOf("### " + plan + ".jmx");
        assertThat(start).as("jmx/README.md has a section on %s.jmx", plan).isNotNegative();
        int end = readme.indexOf("\n##", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }
}
