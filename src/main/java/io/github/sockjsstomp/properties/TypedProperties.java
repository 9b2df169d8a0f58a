package io.github.sockjsstomp.properties;

import io.github.sockjsstomp.properties.TypedPropertyCheck.Finding;
import io.github.sockjsstomp.properties.TypedPropertyCheck.Plan;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.FunctionProperty;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.MultiProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.HashTreeTraverser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says at the start of a run, on the console and in jmeter.log, every typed property the running plan does not
 * read and that looks like ours ({@link TypedPropertyCheck}); a renamed one stops the test as a ConfigError.
 *
 * <p>What the plan reads is found in the test tree the engine runs (its {@code __P(} calls, kept raw in the
 * compiled tree's function properties): the same in a headless run, the GUI (with unsaved edits) and a remote
 * engine, which has the tree but not the file. If JMeter hides the tree, the plan file (FileServer's base and
 * script name) is read instead; with neither, only our own names' near misses are said.
 */
public final class TypedProperties {

    private static final Logger log = LoggerFactory.getLogger(TypedProperties.class);
    private static final Pattern PROPERTY_LINE = Pattern.compile("(?m)^[ \\t]*#?[ \\t]*([A-Za-z][\\w.-]*)[ \\t]*=");

    private TypedProperties() {}

    /**
     * Checks the JMeter properties against the running plan; what must stop the test goes to {@code problems}.
     * {@code remote}: this engine is a remote one, whose properties were typed with -G.
     */
    public static void check(Problems problems, boolean remote) {
        Properties properties = JMeterUtils.getJMeterProperties();
        if (properties == null) {
            return;
        }
        try {
            String planName = planName();
            Set<String> reads = planReads();
            if (reads == null) {
                log.info("{}: its properties are not known; typed properties are checked against ours only", planName);
            }
            Plan plan = new Plan(planName, reads, remote ? "-G" : "-J");
            List<Finding> findings = new ArrayList<>(TypedPropertyCheck.check(asMap(properties), plan, jmeterOwn()));
            findings.addAll(TypedPropertyCheck.systemProperties(asMap(System.getProperties())));
            for (Finding finding : findings) {
                say(finding, problems);
            }
        } catch (RuntimeException e) {
            log.warn("The typed properties were not checked", e);
        }
    }

    private static void say(Finding finding, Problems problems) {
        String said = "stomp: " + finding.message();
        if (finding.stops()) {
            problems.problem(finding.message());
            said += "; the test stops";
            log.error(said);
        } else {
            log.warn(said);
        }
        // On the console in every mode: a headless run's, the terminal that started the GUI, a server's.
        System.out.println(said);
    }

    private static String planName() {
        String script = FileServer.getFileServer().getScriptName();
        return script == null || script.isBlank() ? "the plan" : script;
    }

    /** The properties the running plan reads; null when neither its tree nor its file can be read. */
    private static Set<String> planReads() {
        HashTree tree = engineTree();
        if (tree != null) {
            StringBuilder raw = new StringBuilder();
            tree.traverse(new HashTreeTraverser() {
                @Override
                public void addNode(Object node, HashTree subTree) {
                    if (node instanceof TestElement element) {
                        appendRaw(element.propertyIterator(), raw);
                    }
                }

                @Override
                public void subtractNode() {}

                @Override
                public void processPath() {}
            });
            if (raw.length() > 0) {
                return PlanPropertyNames.in(raw);
            }
        }
        return planFileReads();
    }

    private static void appendRaw(PropertyIterator properties, StringBuilder raw) {
        while (properties.hasNext()) {
            JMeterProperty property = properties.next();
            if (property instanceof FunctionProperty function
                    && function.getObjectValue() instanceof CompoundVariable compound) {
                raw.append(compound.getRawParameters()).append('\n');
            } else if (property instanceof MultiProperty multi) {
                appendRaw(multi.iterator(), raw);
            } else {
                raw.append(property.getStringValue()).append('\n');
            }
        }
    }

    /** The tree this thread's engine runs; JMeter keeps it only in a private field (as the engine's name). */
    private static HashTree engineTree() {
        StandardJMeterEngine engine = JMeterContextService.getContext().getEngine();
        if (engine == null) {
            return null;
        }
        try {
            Field test = StandardJMeterEngine.class.getDeclaredField("test");
            test.setAccessible(true);
            return test.get(engine) instanceof HashTree tree ? tree : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("The engine's test tree cannot be read", e);
            return null;
        }
    }

    private static Set<String> planFileReads() {
        FileServer files = FileServer.getFileServer();
        if (files.getScriptName() == null) {
            return null;
        }
        try {
            Path plan = Path.of(files.getBaseDir(), files.getScriptName());
            return PlanPropertyNames.in(Files.readString(plan, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Every name JMeter's own jmeter.properties has, set or commented out: JMeter's, never ours. */
    private static Set<String> jmeterOwn() {
        Set<String> names = new HashSet<>();
        try {
            Path file = Path.of(JMeterUtils.getJMeterBinDir(), "jmeter.properties");
            Matcher matcher = PROPERTY_LINE.matcher(Files.readString(file, StandardCharsets.ISO_8859_1));
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
        } catch (IOException | RuntimeException e) {
            log.debug("JMeter's jmeter.properties cannot be read", e);
        }
        return names;
    }

    private static Map<String, String> asMap(Properties properties) {
        Map<String, String> map = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return map;
    }
}
