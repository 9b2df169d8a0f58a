package io.github.sockjsstomp.properties;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Nothing typed is ignored in silence: of the properties a user typed (-J, -G), those the running plan does not
 * read and that look like ours (a near miss of a name the plan reads, a name of {@link PlanVocabulary} this plan
 * does not take, a {@code sockjsstomp.} setting the plugin does not have) are said, each naming the nearest name
 * the plan does read. A renamed name, or {@code users} given a file, would measure something else than the
 * user asked for: those stop the test.
 */
public final class TypedPropertyCheck {

    /** How our plan properties are written: camelCase, no dots, no underscores. JMeter's own mostly have both. */
    private static final Pattern OURS = Pattern.compile("[a-z][A-Za-z0-9]*");

    private static final Pattern WHOLE_NUMBER = Pattern.compile("\\s*\\d+\\s*");

    /** One thing to say about a typed property; {@code stops}: the test must not run with it. */
    public record Finding(String name, String message, boolean stops) {}

    /**
     * What the running plan reads; {@code reads} null: not known (the check then knows only our names).
     * {@code flag}: how its properties were typed, -J, or -G for a remote engine's.
     */
    public record Plan(String name, Set<String> reads, String flag) {

        boolean known() {
            return reads != null;
        }
    }

    private TypedPropertyCheck() {}

    /**
     * @param typed the JMeter properties (name, value) as the engine has them
     * @param jmeterOwn names JMeter itself defines (its jmeter.properties), never ours
     */
    public static List<Finding> check(Map<String, String> typed, Plan plan, Set<String> jmeterOwn) {
        List<Finding> findings = new ArrayList<>();
        for (Map.Entry<String, String> property : new TreeMap<>(typed).entrySet()) {
            String name = property.getKey();
            String value = property.getValue();
            if (name.startsWith(PlanVocabulary.JVM_WIDE_PREFIX)) {
                jvmWide(name, value, plan.flag()).ifPresent(findings::add);
            } else if (OURS.matcher(name).matches() && !jmeterOwn.contains(name)) {
                (plan.known() ? againstPlan(name, value, plan) : againstVocabulary(name, value, plan.flag()))
                        .ifPresent(findings::add);
            }
        }
        return findings;
    }

    private static Optional<Finding> againstPlan(String name, String value, Plan plan) {
        String typed = plan.flag() + name + "=" + value;
        if (plan.reads().contains(name)) {
            if (name.equals(PlanVocabulary.USERS)
                    && plan.reads().contains(PlanVocabulary.USERS_FILE)
                    && !WHOLE_NUMBER.matcher(value).matches()) {
                return Optional.of(new Finding(
                        name,
                        typed + ": " + PlanVocabulary.USERS
                                + " is the number of virtual users; a file of login,passcode"
                                + " lines is " + PlanVocabulary.USERS_FILE + " (" + plan.flag()
                                + PlanVocabulary.USERS_FILE + "="
                                + value.trim() + ")",
                        true));
            }
            return Optional.empty();
        }
        String notRead = typed + " is not read by " + plan.name();
        String renamedTo = PlanVocabulary.RENAMED.get(name);
        if (renamedTo != null && plan.reads().contains(renamedTo)) {
            return Optional.of(new Finding(
                    name,
                    notRead + ": " + PlanVocabulary.RENAMED_BECAUSE.get(name) + "; use " + plan.flag() + renamedTo,
                    true));
        }
        Optional<String> nearMiss = NearestName.nearMiss(name, plan.reads());
        if (nearMiss.isPresent()) {
            return Optional.of(new Finding(name, notRead + ": did you mean " + nearMiss.get() + "?", false));
        }
        if (PlanVocabulary.PLAN_PROPERTIES.contains(name) || renamedTo != null) {
            // A nearest name many edits away would be noise: named only within half the name's length.
            String nearest = NearestName.nearest(name, plan.reads())
                    .filter(read -> NearestName.edits(name, read) <= Math.max(2, name.length() / 2))
                    .map(read -> "; the nearest it reads is " + read)
                    .orElse("");
            return Optional.of(new Finding(name, notRead + " (another plan's property)" + nearest, false));
        }
        return Optional.empty();
    }

    private static Optional<Finding> againstVocabulary(String name, String value, String flag) {
        if (PlanVocabulary.PLAN_PROPERTIES.contains(name) || PlanVocabulary.RENAMED.containsKey(name)) {
            return Optional.empty();
        }
        return NearestName.nearMiss(name, PlanVocabulary.PLAN_PROPERTIES)
                .map(near -> new Finding(
                        name,
                        flag + name + "=" + value + " is not a property of the plans: did you mean " + near + "?",
                        false));
    }

    private static Optional<Finding> jvmWide(String name, String value, String flag) {
        String setting = name.substring(PlanVocabulary.JVM_WIDE_PREFIX.length());
        if (PlanVocabulary.JVM_WIDE.contains(setting) || name.equals(PlanVocabulary.LOG_FILE_SYSTEM_PROPERTY)) {
            return Optional.empty();
        }
        String said = flag + name + "=" + value + " is not a setting of the plugin";
        return Optional.of(new Finding(
                name,
                NearestName.nearMiss(setting, PlanVocabulary.JVM_WIDE)
                        .map(near -> said + ": did you mean " + PlanVocabulary.JVM_WIDE_PREFIX + near + "?")
                        .orElse(said + " (it has " + PlanVocabulary.JVM_WIDE_PREFIX
                                + String.join(", " + PlanVocabulary.JVM_WIDE_PREFIX, sorted(PlanVocabulary.JVM_WIDE))
                                + ")"),
                false));
    }

    /**
     * A {@code sockjsstomp.} JVM system property (-D) other than the log file: the plugin reads its settings from
     * JMeter properties, so it has no effect.
     */
    public static List<Finding> systemProperties(Map<String, String> system) {
        List<Finding> findings = new ArrayList<>();
        for (Map.Entry<String, String> property : new TreeMap<>(system).entrySet()) {
            String name = property.getKey();
            if (name.startsWith(PlanVocabulary.JVM_WIDE_PREFIX)
                    && !name.equals(PlanVocabulary.LOG_FILE_SYSTEM_PROPERTY)) {
                findings.add(new Finding(
                        name,
                        "-D" + name + "=" + property.getValue()
                                + " is a JVM system property; the plugin reads its settings as JMeter properties: -J"
                                + name,
                        false));
            }
        }
        return findings;
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }
}
