package io.github.sockjsstomp.properties;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The properties a plan reads: the names in its {@code ${__P(name,default)}} and {@code ${__property(name)}}
 * calls. A name a script reads another way ({@code props.get("name")} in JSR223) is not seen.
 */
public final class PlanPropertyNames {

    private static final Pattern READ = Pattern.compile("__(?:P|property)\\(\\s*([A-Za-z0-9_.-]+)\\s*[,)]");

    private PlanPropertyNames() {}

    /** The names read in {@code text}: a plan file, or the raw text of the plan's elements. */
    public static Set<String> in(CharSequence text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = READ.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
