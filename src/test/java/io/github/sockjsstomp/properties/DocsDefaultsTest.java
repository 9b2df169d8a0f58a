package io.github.sockjsstomp.properties;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.client.user.ReconnectBackoff;
import io.github.sockjsstomp.client.wiring.ClientSettings;
import io.github.sockjsstomp.properties.DocTable.Default;
import io.github.sockjsstomp.sampler.StompConnectSampler;
import io.github.sockjsstomp.sampler.StompReceiveSampler;
import io.github.sockjsstomp.sampler.StompReplySampler;
import io.github.sockjsstomp.sampler.StompSendSampler;
import io.github.sockjsstomp.sampler.StompStepsSampler;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.jmeter.protocol.java.sampler.AbstractJavaSamplerClient;
import org.junit.jupiter.api.Test;

/**
 * Docs from one source: the defaults the reference pages state are the ones the plans ({@code __P(name,default)}
 * in jmx/*.jmx) and the samplers (their Java Request parameters) have, every property and parameter is in its
 * page, and nothing is documented that nothing reads.
 */
class DocsDefaultsTest {

    private static final Path ROOT = Path.of(System.getProperty("project.root", "."));

    /** The samplers by the name docs/samplers.md gives them. */
    private static final Map<String, AbstractJavaSamplerClient> SAMPLERS = new LinkedHashMap<>();

    static {
        SAMPLERS.put("connect", new StompConnectSampler());
        SAMPLERS.put("send", new StompSendSampler());
        SAMPLERS.put("receive", new StompReceiveSampler());
        SAMPLERS.put("reply", new StompReplySampler());
        SAMPLERS.put("steps", new StompStepsSampler());
    }

    @Test
    void propertiesPageStatesEveryPlanPropertyWithThePlansDefaults() throws IOException {
        Path page = ROOT.resolve("docs/properties.md");
        assertThat(page).as("docs/properties.md, the plan property reference").exists();
        DocTable table = DocTable.only(read(page), "property", "read by", "default", "meaning");
        List<String> problems = compare(table, "property", "read by", readers(PlanDefaults.of(ROOT.resolve("jmx"))));
        assertThat(problems).as("docs/properties.md against jmx/*.jmx").isEmpty();
    }

    @Test
    void samplersPageStatesEveryParameterWithTheSamplersDefaults() throws IOException {
        DocTable table =
                DocTable.only(read(ROOT.resolve("docs/samplers.md")), "parameter", "samplers", "default", "meaning");
        Map<String, Map<String, Set<String>>> code = new TreeMap<>();
        SAMPLERS.forEach((name, sampler) -> {
            Map<String, Set<String>> parameters = new TreeMap<>();
            sampler.getDefaultParameters()
                    .getArgumentsAsMap()
                    .forEach((parameter, value) -> parameters.put(parameter, Set.of(value)));
            code.put(name, parameters);
        });
        assertThat(compare(table, "parameter", "samplers", readers(code)))
                .as("docs/samplers.md against the samplers' parameters")
                .isEmpty();
    }

    @Test
    void samplersPageStatesEveryJvmWideSettingWithItsDefault() throws IOException {
        DocTable table = DocTable.only(read(ROOT.resolve("docs/samplers.md")), "property", "default", "meaning");
        Map<String, String> code = new TreeMap<>();
        ClientSettings defaults = ClientSettings.defaults();
        for (RecordComponent component : ClientSettings.class.getRecordComponents()) {
            try {
                code.put(
                        component.getName(),
                        component.getAccessor().invoke(defaults).toString());
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        code.put("reconnectMinMillis", Long.toString(ReconnectBackoff.DEFAULT_MIN_MILLIS));
        code.put("reconnectMaxMillis", Long.toString(ReconnectBackoff.DEFAULT_MAX_MILLIS));
        List<String> problems = new ArrayList<>();
        Set<String> documented = new TreeSet<>();
        for (Map<String, String> row : table.rows()) {
            String property = DocTable.names(row.get("property")).get(0);
            String setting = property.substring(PlanVocabulary.JVM_WIDE_PREFIX.length());
            documented.add(setting);
            Default stated = DocTable.defaults(row.get("default")).get(null);
            // Settings the code reads as text with an inline default (warmUp, replySummary, onTimingLogFailure)
            // have no constant to compare with; a computed default is a formula (the cores, at least 2).
            if (code.containsKey(setting)
                    && !stated.computed()
                    && !stated.value().equals(code.get(setting))) {
                problems.add(
                        property + ": documented " + stated + ", the code's default is `" + code.get(setting) + "`");
            }
        }
        assertThat(problems).isEmpty();
        assertThat(documented).as("JVM-wide settings documented").isEqualTo(new TreeSet<>(PlanVocabulary.JVM_WIDE));
    }

    /** docs/capacity.md's table states, for each property, the default of every plan that reads it. */
    @Test
    void capacityPageStatesTheDefaultsOfEveryPlanThatSteps() throws IOException {
        Map<String, Map<String, Set<String>>> plans = PlanDefaults.of(ROOT.resolve("jmx"));
        DocTable table = DocTable.only(read(ROOT.resolve("docs/capacity.md")), "property", "default", "meaning");
        List<String> problems = new ArrayList<>();
        for (Map<String, String> row : table.rows()) {
            Map<String, Default> defaults = DocTable.defaults(row.get("default"));
            for (String name : DocTable.names(row.get("property"))) {
                plans.forEach((plan, read) -> {
                    Set<String> values = read.get(name);
                    if (values == null) {
                        return;
                    }
                    Default said = defaults.getOrDefault(plan, defaults.get(null));
                    if (said == null) {
                        problems.add(name + ": no default documented for " + plan);
                    } else if (said.computed()
                            ? !values.stream().allMatch(PlanDefaults::isComputed)
                            : !values.equals(Set.of(said.value()))) {
                        problems.add(name + ": documented " + said + " for " + plan + ", which has " + quoted(values));
                    }
                });
            }
        }
        assertThat(table.rows()).isNotEmpty();
        assertThat(problems).as("docs/capacity.md against jmx/*.jmx").isEmpty();
    }

    @Test
    void jmxReadmeTablesStateThePlansDefaults() throws IOException {
        Map<String, Map<String, Set<String>>> plans = PlanDefaults.of(ROOT.resolve("jmx"));
        List<String> problems = new ArrayList<>();
        for (DocTable table : DocTable.all(read(ROOT.resolve("jmx/README.md")), "property", "default")) {
            // A plan's own section names it (### send.jmx: ...); the common table speaks for every plan.
            List<String> scope = plans.keySet().stream()
                    .filter(plan -> table.heading().startsWith(plan + ".jmx"))
                    .toList();
            for (Map<String, String> row : table.rows()) {
                List<String> names = DocTable.names(row.get("property"));
                List<String> values = splitDefaults(row.get("default"), names.size());
                for (int i = 0; i < names.size(); i++) {
                    String value = values.get(i);
                    for (String plan : scope.isEmpty() ? plans.keySet() : scope) {
                        Set<String> written = plans.get(plan).get(names.get(i));
                        if (written == null) {
                            if (!scope.isEmpty()) {
                                problems.add(table.heading() + ": " + names.get(i) + " is not read by " + plan);
                            }
                        } else if (!written.equals(Set.of(value))) {
                            problems.add(table.heading() + ": " + names.get(i) + " documented `" + value + "`, " + plan
                                    + ".jmx has " + written);
                        }
                    }
                }
            }
        }
        assertThat(problems)
                .as("jmx/README.md's property tables against jmx/*.jmx")
                .isEmpty();
    }

    @Test
    void userPropertiesNameOnlyPropertiesAPlanReads() throws IOException {
        Set<String> read = new TreeSet<>();
        PlanDefaults.of(ROOT.resolve("jmx")).values().forEach(plan -> read.addAll(plan.keySet()));
        Set<String> named = new TreeSet<>();
        for (String line : Files.readAllLines(ROOT.resolve("jmeter-config/user.properties"))) {
            if (line.matches("#?[a-z][A-Za-z0-9]*=.*")) {
                named.add(line.substring(line.startsWith("#") ? 1 : 0, line.indexOf('=')));
            }
        }
        assertThat(named).as("plan properties in jmeter-config/user.properties").isNotEmpty();
        assertThat(read).as("what jmx/*.jmx read").containsAll(named);
    }

    /** For each name, who reads it and with which defaults: owner (plan, sampler) to name to defaults. */
    private static Map<String, Map<String, Set<String>>> readers(Map<String, Map<String, Set<String>>> owners) {
        Map<String, Map<String, Set<String>>> byName = new TreeMap<>();
        owners.forEach((owner, names) -> names.forEach((name, values) ->
                byName.computeIfAbsent(name, n -> new TreeMap<>()).put(owner, values)));
        return byName;
    }

    /** Every difference between a reference table and what its owners read; empty when they agree. */
    private static List<String> compare(
            DocTable table, String nameColumn, String ownersColumn, Map<String, Map<String, Set<String>>> code) {
        List<String> everyone = code.values().stream()
                .flatMap(owners -> owners.keySet().stream())
                .distinct()
                .sorted()
                .toList();
        List<String> problems = new ArrayList<>();
        Set<String> documented = new TreeSet<>();
        for (Map<String, String> row : table.rows()) {
            for (String name : DocTable.names(row.get(nameColumn))) {
                documented.add(name);
                Map<String, Set<String>> readBy = code.get(name);
                if (readBy == null) {
                    problems.add(name + ": documented, but nothing reads it");
                    continue;
                }
                Set<String> stated = new TreeSet<>(DocTable.owners(row.get(ownersColumn), everyone));
                if (!stated.equals(readBy.keySet())) {
                    problems.add(name + ": documented as read by " + stated + ", read by " + readBy.keySet());
                }
                Map<String, Default> defaults = DocTable.defaults(row.get("default"));
                readBy.forEach((owner, values) -> {
                    Default said = defaults.getOrDefault(owner, defaults.get(null));
                    if (said == null) {
                        problems.add(name + ": no default documented for " + owner);
                    } else if (said.computed()) {
                        if (!values.stream().allMatch(PlanDefaults::isComputed)) {
                            problems.add(name + ": documented as computed, " + owner + " has " + quoted(values));
                        }
                    } else if (!values.equals(Set.of(said.value()))) {
                        problems.add(name + ": documented " + said + " for " + owner + ", which has " + quoted(values));
                    }
                });
            }
        }
        Set<String> undocumented = new TreeSet<>(code.keySet());
        undocumented.removeAll(documented);
        undocumented.forEach(
                name -> problems.add(name + ": read by " + code.get(name).keySet() + ", not documented"));
        return problems;
    }

    /** {@code `a`, `b`} for two names; {@code empty} is an empty value; one value may stand for every name. */
    private static List<String> splitDefaults(String cell, int names) {
        List<String> values = new ArrayList<>(DocTable.names(cell));
        if (values.isEmpty() && cell.strip().startsWith("empty")) {
            values.add("");
        }
        while (values.size() < names && values.size() == 1) {
            values.add(values.get(0));
        }
        return values.size() == names ? values : List.of(cell);
    }

    private static String quoted(Set<String> values) {
        return values.stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
    }

    private static String read(Path page) throws IOException {
        return Files.readString(page, StandardCharsets.UTF_8);
    }
}
