package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.properties.PlanDefaults;
import io.github.sockjsstomp.properties.PlanVocabulary;
import io.github.sockjsstomp.sampler.StompConnectSampler;
import io.github.sockjsstomp.sampler.StompReceiveSampler;
import io.github.sockjsstomp.sampler.StompReplySampler;
import io.github.sockjsstomp.sampler.StompSendSampler;
import io.github.sockjsstomp.sampler.StompStepsSampler;
import io.github.sockjsstomp.timing.TimingRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user reads first says what the code and the plans do: the docs index tells every page a guide or a
 * reference, README leads to the quickstart, every link finds its page and heading, the command lines survive
 * zsh, and each statement below is checked against its source (the jar's samplers, the timing log's header, the
 * plans that step, the benchmark summary, the keystore JMeter looks for).
 */
class DocsPagesTest {

    private static final Path ROOT = PlanRun.projectRoot();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");
    private static final List<String> NUMBERS =
            List.of("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten");

    @Test
    void theDocsIndexListsEveryPageOnceAsAGuideOrAReference() throws IOException {
        String index = read("docs/README.md");
        Map<String, String> sectionOf = new HashMap<>();
        List<String> listed = new ArrayList<>();
        String section = null;
        for (String line : index.split("\n")) {
            if (line.startsWith("## ")) {
                section = line.substring(3).strip();
            } else if (line.startsWith("| [") && section != null) {
                Matcher link = LINK.matcher(line);
                assertThat(link.find()).as(line).isTrue();
                listed.add(link.group(1));
                sectionOf.put(link.group(1), section);
            }
        }
        assertThat(new TreeSet<>(sectionOf.values())).containsExactly("Guides", "Reference");
        assertThat(listed).as("pages listed once").doesNotHaveDuplicates();
        Set<String> pages = new TreeSet<>();
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.map(p -> p.getFileName().toString())
                    .filter(name -> name.endsWith(".md") && !name.equals("README.md"))
                    .forEach(pages::add);
        }
        assertThat(listed).as("docs/README.md lists every page of docs/").containsAll(pages);
        assertThat(sectionOf).containsEntry("quickstart.md", "Guides").containsEntry("results.md", "Guides");
        assertThat(listed.subList(0, 2)).containsExactly("quickstart.md", "results.md");
    }

    @Test
    void readmeLeadsToTheQuickstartThenTheResultsPage() throws IOException {
        List<String> docsLinks = new ArrayList<>();
        Matcher link = LINK.matcher(read("README.md"));
        while (link.find()) {
            if (link.group(1).startsWith("docs/")) {
                docsLinks.add(link.group(1).replaceFirst("#.*", ""));
            }
        }
        assertThat(docsLinks.subList(0, 3)).containsExactly("docs/quickstart.md", "docs/results.md", "docs/README.md");
    }

    @Test
    void everyRelativeLinkFindsItsFileAndItsHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher link = LINK.matcher(withoutCode(Files.readString(page, StandardCharsets.UTF_8)));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                String file = target.replaceFirst("#.*", "");
                Path resolved =
                        file.isEmpty() ? page : page.resolveSibling(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (target.contains("#") && resolved.toString().endsWith(".md")) {
                    String anchor = target.substring(target.indexOf('#') + 1);
                    if (!anchors(Files.readString(resolved, StandardCharsets.UTF_8))
                            .contains(anchor)) {
                        broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                    }
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    /** zsh (macOS' shell) stops at an unquoted {@code *}, {@code ?} or {@code [} that matches no file. */
    @Test
    void noCommandLineOfTheDocsHasAnUnquotedPattern() throws IOException {
        List<ReadmeCommand> commands = ReadmeCommand.all(ROOT);
        assertThat(commands).isNotEmpty();
        assertThat(commands)
                .filteredOn(command -> command.properties().containsKey("steps"))
                .as("the stepped lines, one with a factor")
                .anySatisfy(
                        command -> assertThat(command.properties().get("steps")).contains("*"));
        assertThat(commands)
                .allSatisfy(command -> assertThat(unquotedPatterns(command.text()))
                        .as("%s", command)
                        .isEmpty());
    }

    @Test
    void unquotedPatternsAreFoundAsZshWouldSeeThem() {
        assertThat(unquotedPatterns("jmeter -Jsteps=1000..8000*2")).containsExactly("*");
        assertThat(unquotedPatterns("jmeter '-Jsteps=1000..8000*2' -Jx=\"a?\" -Jy=b\\*"))
                .isEmpty();
        assertThat(unquotedPatterns("jmeter -Jf=pid:$(pgrep -f x* | head -1)")).isEmpty();
    }

    @Test
    void everyTimingLogHeaderTheDocsWriteOutIsTheCurrentOne() throws IOException {
        Pattern header = Pattern.compile("sent_epoch_ms,outcome,msg_id,[a-z_.,]+");
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            if (page.startsWith(ROOT.resolve("analysis"))) {
                continue; // the report tool's page describes the older formats it still reads
            }
            Matcher matcher = header.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (matcher.find()) {
                found.add(ROOT.relativize(page) + ": " + matcher.group());
            }
        }
        assertThat(found)
                .as("timing log headers in the docs")
                .anySatisfy(line -> assertThat(line).startsWith("jmx/README.md: "))
                .allSatisfy(line -> assertThat(line).endsWith(": " + TimingRecord.HEADER));
    }

    @Test
    void theGuideAndTheReferenceNameEverySamplerTheJarLists() throws IOException {
        List<String> classes;
        try (InputStream services = getClass()
                .getResourceAsStream("/META-INF/services/org.apache.jmeter.protocol.java.sampler.JavaSamplerClient")) {
            assertThat(services).isNotNull();
            classes = new String(services.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        }
        String count = NUMBERS.get(classes.size());
        String guide = read("docs/samplers-guide.md");
        String reference = read("docs/samplers.md");
        for (String name : classes) {
            assertThat(guide).as("samplers-guide.md's table").contains("| `" + name + "` |");
            assertThat(reference).as("samplers.md").contains(name.substring(name.lastIndexOf('.') + 1));
        }
        assertThat(guide).contains("built from " + count + " Java Request samplers");
        assertThat(read("docs/README.md")).contains("the " + count + " samplers");
        assertThat(read("README.md").toLowerCase(Locale.ROOT))
                .doesNotContainPattern("\\b(?!" + count + "\\b)(" + String.join("|", NUMBERS) + ") samplers");
    }

    /** A name in backquotes in the guide is a parameter, a property, or one of the labels and values it shows. */
    @Test
    void theGuideNamesNoParameterThatDoesNotExist() throws IOException {
        Set<String> known = new TreeSet<>(PlanVocabulary.PLAN_PROPERTIES);
        for (AbstractJavaSamplerClient sampler : List.of(
                new StompConnectSampler(),
                new StompSendSampler(),
                new StompReceiveSampler(),
                new StompReplySampler(),
                new StompStepsSampler())) {
            known.addAll(sampler.getDefaultParameters().getArgumentsAsMap().keySet());
        }
        Set<String> labelsAndValues = Set.of(
                "index",
                "clientPull",
                "connect",
                "subscribe",
                "session",
                "alive",
                "expired",
                "auto",
                "client",
                "false",
                "none",
                "raw",
                "websocket",
                "xhr",
                "guest");
        Matcher name = Pattern.compile("`([a-z][A-Za-z]*)`").matcher(read("docs/samplers-guide.md"));
        Set<String> unknown = new TreeSet<>();
        while (name.find()) {
            if (!known.contains(name.group(1)) && !labelsAndValues.contains(name.group(1))) {
                unknown.add(name.group(1));
            }
        }
        assertThat(unknown)
                .as("names in samplers-guide.md that no sampler or plan reads")
                .isEmpty();
    }

    @Test
    void readmesSteppedSectionNamesEveryPlanThatSteps() throws IOException {
        Set<String> stepping = new TreeSet<>();
        PlanDefaults.of(ROOT.resolve("jmx")).forEach((plan, read) -> {
            if (read.containsKey("steps")) {
                stepping.add(plan);
            }
        });
        assertThat(stepping).hasSizeGreaterThan(1);
        String readme = read("README.md");
        String stepped = readme.substring(
                readme.indexOf("## Where does it break"), readme.indexOf("\n## ", readme.indexOf("## Where does")));
        Set<String> named = new TreeSet<>();
        Matcher plan = Pattern.compile("\\b(\\w+)\\.jmx\\b").matcher(stepped);
        while (plan.find()) {
            named.add(plan.group(1));
        }
        assertThat(named).as("plans README's stepped section names").isEqualTo(stepping);
        String capacity = read("docs/capacity.md");
        assertThat(capacity).contains(capitalized(NUMBERS.get(stepping.size())) + " plans step");
        stepping.forEach(p -> assertThat(capacity).contains("**" + p + ".jmx**"));
    }

    /** The quickstart answers with every plan, and the defaults it states are the plans'. */
    @Test
    void theQuickstartNamesEveryPlanWithTheDefaultsItStates() throws IOException {
        Map<String, Map<String, Set<String>>> plans = PlanDefaults.of(ROOT.resolve("jmx"));
        String quickstart = read("docs/quickstart.md");
        String table = quickstart.substring(
                quickstart.indexOf("## Which plan answers which question"),
                quickstart.indexOf("## The one thing your server must do"));
        plans.keySet().forEach(plan -> assertThat(table).contains("`" + plan + ".jmx`"));
        assertThat(plans.get("echo").get("pauseMillis")).containsExactly("1000");
        assertThat(table).contains("pauses `pauseMillis` (1 s)");
        assertThat(plans.get("send").get("messagesPerSecond")).containsExactly("100");
        assertThat(table).contains("`messagesPerSecond` messages per second (100)");
        assertThat(plans.get("echo").get("replyTimeoutMillis")).containsExactly("5000");
        assertThat(quickstart).contains("`replyTimeoutMillis` (5 s)");
        assertThat(plans.get("echo").get("payload")).hasSize(1);
        assertThat(quickstart.replaceAll("\\s+", " "))
                .as("echo.jmx's default payload, as the quickstart states it")
                .contains("echo.jmx's default payload is `"
                        + plans.get("echo").get("payload").iterator().next() + "`");
        assertThat(quickstart).contains("`x-msg-id` header").contains("{{msgId}}");
        assertThat(new StompSendSampler().getDefaultParameters().getArgumentsAsMap())
                .containsEntry("idHeader", "x-msg-id");
        assertThat(read("docs/results.md")).contains("(`timingLog`, default `stomp-timing.csv`)");
        assertThat(plans.get("send").get("timingLog")).containsExactly("stomp-timing.csv");
    }

    /** README's benchmark paragraph quotes bench/RESULTS.md's summary, the part above its dated runs. */
    @Test
    void readmesCapacityFiguresAreTheBenchmarkSummarys() throws IOException {
        String readme = read("README.md");
        int start = readme.indexOf("## Capacity\n");
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        String results = read("bench/RESULTS.md");
        Matcher dated = Pattern.compile("(?m)^## \\d").matcher(results);
        String summary = dated.find() ? results.substring(0, dated.start()) : results;
        Pattern figure =
                Pattern.compile("\\d+(?:\\.\\d+)?-\\d+(?:\\.\\d+)?x?|\\d+\\.\\d+x|\\d+\\.\\d+ (?:us|KB)|\\d{3}-\\d{3}");
        Matcher matcher = figure.matcher(section.replace("\n", " "));
        List<String> figures = new ArrayList<>();
        while (matcher.find()) {
            figures.add(matcher.group());
        }
        assertThat(figures).as("figures in README's Capacity section").hasSizeGreaterThan(10);
        assertThat(figures)
                .as("each figure of README's Capacity section in bench/RESULTS.md's summary")
                .allSatisfy(f -> assertThat(summary).contains(f));
    }

    @Test
    void userPropertiesPointsOnlyAtPagesThatExist() throws IOException {
        String properties = read("jmeter-config/user.properties");
        Matcher page = Pattern.compile("(?:docs|jmx|analysis|jmeter-config)/[\\w./-]+\\.md")
                .matcher(properties);
        int pages = 0;
        while (page.find()) {
            pages++;
            assertThat(ROOT.resolve(page.group()))
                    .as("user.properties names %s", page.group())
                    .exists();
        }
        assertThat(pages).isPositive();
        assertThat(properties).as("README sections by name").doesNotContainPattern("README, [A-Z]");
    }

    /** README's prerequisites name the RabbitMQ `make test` looks for and how it installs it. */
    @Test
    void readmesPrerequisitesNameWhatMakeTestNeeds() throws IOException {
        String readme = read("README.md");
        String twoCommands =
                readme.substring(readme.indexOf("## The two commands"), readme.indexOf("## Install into your JMeter"));
        String install = read("scripts/rabbitmq-install.sh");
        Matcher path = Pattern.compile("-x (/\\S+rabbitmq-server)").matcher(install);
        assertThat(path.find()).isTrue();
        assertThat(twoCommands.replaceAll("\\s+", " "))
                .contains("`" + path.group(1) + "`")
                .contains("passwordless `sudo` and `apt-get`")
                .contains("python3-venv")
                .contains("git")
                .containsPattern("`make test` takes about \\d+ minutes");
        assertThat(install).contains("sudo -n true").contains("apt-get install");
    }

    /** docs/distributed.md's keytool line makes the keystore JMeter's defaults name (rmi_keystore.jks, rmi). */
    @Test
    void theKeystoreLineOfTheDistributedGuideMakesJMetersKeystore(@TempDir Path dir) throws Exception {
        Matcher line = Pattern.compile("(?m)^\\s*(keytool -genkey .+)$").matcher(read("docs/distributed.md"));
        assertThat(line.find()).isTrue();
        List<String> command = new ArrayList<>(ReadmeCommand.words(line.group(1)));
        command.set(
                0, Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of("-dname", "CN=rmi")); // what it asks for at a terminal
        Process keytool = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(output).isZero();
        KeyStore store = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(dir.resolve("rmi_keystore.jks"))) {
            store.load(in, "changeit".toCharArray());
        }
        assertThat(store.isKeyEntry("rmi")).isTrue();
    }

    /** Every pattern character bash or zsh would expand: outside quotes, not escaped, not in {@code $(...)}. */
    static List<String> unquotedPatterns(String text) {
        List<String> found = new ArrayList<>();
        char quote = 0;
        int substitution = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (substitution > 0) {
                substitution += c == '(' ? 1 : c == ')' ? -1 : 0;
            } else if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '\\') {
                i++;
            } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '(') {
                substitution = 1;
                i++;
            } else if (c == '*' || c == '?' || c == '[') {
                found.add(String.valueOf(c));
            }
        }
        return found;
    }

    /** GitHub's anchors of a page's headings: lower case, punctuation dropped, blanks as hyphens, repeats numbered. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher heading = HEADING.matcher(withoutCode(markdown));
        while (heading.find()) {
            String slug = heading.group(1)
                    .strip()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}_ -]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(
                ROOT.resolve("README.md"),
                ROOT.resolve("jmx/README.md"),
                ROOT.resolve("jmeter-config/README.md"),
                ROOT.resolve("analysis/README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    private static String capitalized(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }
}
