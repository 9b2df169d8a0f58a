package io.github.sockjsstomp.release;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of the Plugins Manager's repository schema ({@code repo_schema.json} of undera/jmeter-plugins, JSON
 * Schema): a repository file is an array of entries; an entry has only the fields below, these of them required,
 * each of its type; its {@code versions} map a version key (digits and dots, an optional {@code -suffix}) or
 * {@code ""} (a component bound to JMeter's own version) to a version with a {@code downloadUrl} and only the fields
 * below. One rule is stricter than the schema: a version key of another shape, which the schema lets through
 * unchecked and the Plugins Manager would offer as a version, is an error here.
 */
final class RepositorySchema {

    static final Pattern VERSION_KEY = Pattern.compile("^\\d+(\\.\\d+)*(-\\w+)?$");

    private static final Set<String> REQUIRED =
            Set.of("description", "helpUrl", "id", "markerClass", "name", "screenshotUrl", "vendor", "versions");
    private static final Set<String> STRINGS =
            Set.of("id", "name", "description", "screenshotUrl", "helpUrl", "vendor", "installerClass");
    private static final Set<String> ENTRY_FIELDS = Set.of(
            "id",
            "name",
            "description",
            "screenshotUrl",
            "helpUrl",
            "vendor",
            "markerClass",
            "versions",
            "componentClasses",
            "canUninstall",
            "installerClass");
    private static final Set<String> VERSION_FIELDS = Set.of("downloadUrl", "depends", "changes", "libs");
    /** The version bound to JMeter's ({@code ""}) takes a download and libraries only. */
    private static final Set<String> JMETER_VERSION_FIELDS = Set.of("downloadUrl", "libs");

    private RepositorySchema() {}

    /** What breaks the rules in a repository file, each with where it is ({@code [0].versions.0.1.0}); none: valid. */
    static List<String> violations(JsonNode file) {
        List<String> found = new ArrayList<>();
        if (!file.isArray()) {
            found.add("the file is not a JSON array");
            return found;
        }
        for (int i = 0; i < file.size(); i++) {
            entry(file.get(i), "[" + i + "]", found);
        }
        return found;
    }

    private static void entry(JsonNode entry, String where, List<String> found) {
        if (!entry.isObject()) {
            found.add(where + ": not an object");
            return;
        }
        REQUIRED.stream()
                .sorted()
                .filter(field -> !entry.has(field))
                .forEach(field -> found.add(where + ": no '" + field + "'"));
        entry.fieldNames().forEachRemaining(field -> {
            if (!ENTRY_FIELDS.contains(field)) {
                found.add(where + ": '" + field + "' is not a field of an entry");
            }
        });
        STRINGS.stream()
                .filter(field -> entry.has(field) && !entry.get(field).isTextual())
                .forEach(field -> found.add(where + "." + field + ": not a string"));
        if (entry.has("markerClass")
                && !entry.get("markerClass").isTextual()
                && !entry.get("markerClass").isNull()) {
            found.add(where + ".markerClass: not a string or null");
        }
        if (entry.has("canUninstall") && !entry.get("canUninstall").isBoolean()) {
            found.add(where + ".canUninstall: not a boolean");
        }
        if (entry.has("componentClasses")) {
            strings(entry.get("componentClasses"), where + ".componentClasses", found);
        }
        JsonNode versions = entry.get("versions");
        if (versions == null) {
            return;
        }
        if (!versions.isObject()) {
            found.add(where + ".versions: not an object");
            return;
        }
        for (Map.Entry<String, JsonNode> version : iterable(versions)) {
            String key = version.getKey();
            boolean jmeters = key.isEmpty();
            String at = where + ".versions." + (jmeters ? "''" : key);
            if (!jmeters && !VERSION_KEY.matcher(key).matches()) {
                found.add(at + ": not a version key (digits and dots, an optional -suffix)");
                continue;
            }
            version(version.getValue(), at, jmeters ? JMETER_VERSION_FIELDS : VERSION_FIELDS, jmeters, found);
        }
    }

    private static void version(JsonNode version, String at, Set<String> fields, boolean jmeters, List<String> found) {
        if (!version.isObject()) {
            found.add(at + ": not an object");
            return;
        }
        if (!version.has("downloadUrl")) {
            found.add(at + ": no 'downloadUrl'");
        } else {
            JsonNode url = version.get("downloadUrl");
            if (!url.isTextual() && (jmeters || !url.isNull())) {
                found.add(at + ".downloadUrl: not a string" + (jmeters ? "" : " or null"));
            }
        }
        version.fieldNames().forEachRemaining(field -> {
            if (!fields.contains(field)) {
                found.add(at + ": '" + field + "' is not a field of a version");
            }
        });
        if (version.has("changes") && !version.get("changes").isTextual()) {
            found.add(at + ".changes: not a string");
        }
        if (version.has("depends")) {
            strings(version.get("depends"), at + ".depends", found);
        }
        if (version.has("libs")) {
            JsonNode libs = version.get("libs");
            if (!libs.isObject()) {
                found.add(at + ".libs: not an object");
            } else {
                for (Map.Entry<String, JsonNode> lib : iterable(libs)) {
                    if (!lib.getValue().isTextual()) {
                        found.add(at + ".libs." + lib.getKey() + ": not a string");
                    }
                }
            }
        }
    }

    private static void strings(JsonNode array, String at, List<String> found) {
        if (!array.isArray()) {
            found.add(at + ": not an array");
            return;
        }
        for (int i = 0; i < array.size(); i++) {
            if (!array.get(i).isTextual()) {
                found.add(at + "[" + i + "]: not a string");
            }
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }
}
