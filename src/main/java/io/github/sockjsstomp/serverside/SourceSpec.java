package io.github.sockjsstomp.serverside;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One source of the {@code serverFigures} list, checked: {@code actuator:<base url>}, {@code rabbitmq:<management
 * API base url>} (user:password in the URL for basic auth) or {@code pid:<process id>} (a process on this machine).
 *
 * @param kind the file's {@code source} column: {@value #ACTUATOR}, {@value #RABBITMQ} or {@value #PID}; {@value
 *     #GENERATOR} for the generator's own row, which no user names
 * @param target the URL (without a trailing slash) or the process id
 */
public record SourceSpec(String kind, String target) {

    public static final String ACTUATOR = "actuator";
    public static final String RABBITMQ = "rabbitmq";
    public static final String PID = "pid";
    public static final String GENERATOR = "generator";

    /** Where pid sources are read (a parameter of ProcessSource, so its test reads a directory of its own). */
    static final Path PROC = Path.of("/proc");

    /**
     * Reads a comma-separated list of sources; blank items are skipped, an empty list is no polling at all.
     *
     * @throws IllegalArgumentException naming the item that is wrong and what was expected
     */
    public static List<SourceSpec> parseList(String text) {
        List<SourceSpec> specs = new ArrayList<>();
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                specs.add(parse(item.trim()));
            }
        }
        return List.copyOf(specs);
    }

    static SourceSpec parse(String item) {
        int colon = item.indexOf(':');
        String kind = colon < 0 ? "" : item.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String rest = colon < 0 ? "" : item.substring(colon + 1).trim();
        return switch (kind) {
            case ACTUATOR, RABBITMQ -> new SourceSpec(kind, httpUrl(item, rest));
            case PID -> new SourceSpec(kind, Long.toString(pid(item, rest)));
            default ->
                throw new IllegalArgumentException("'" + item + "' is not a source: expected "
                        + "actuator:<url, e.g. http://127.0.0.1:8080/actuator>, "
                        + "rabbitmq:<url, e.g. http://guest:guest@127.0.0.1:15672> or pid:<process id>");
        };
    }

    private static String httpUrl(String item, String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
            }
        } catch (URISyntaxException e) {
            // said below
        }
        throw new IllegalArgumentException("'" + item + "': expected an http or https URL with a host after the "
                + "colon, e.g. actuator:http://127.0.0.1:8080/actuator");
    }

    private static long pid(String item, String text) {
        long pid;
        try {
            pid = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + item + "': expected a process id, a whole number, after pid:");
        }
        Path stat = PROC.resolve(Long.toString(pid)).resolve("stat");
        if (pid <= 0 || !Files.isReadable(stat)) {
            throw new IllegalArgumentException(
                    "'" + item + "': no process " + pid + " on this machine (" + stat + " cannot be read)");
        }
        return pid;
    }

    /** As the console says it: the URL without its user:password. */
    @Override
    public String toString() {
        if (kind.equals(PID)) {
            return kind + ":" + target;
        }
        return kind + ":" + target.replaceFirst("//[^/@]*@", "//");
    }
}
