package io.github.sockjsstomp.client;

/**
 * Which plugin this is, in the one form every place that names it uses: {@code jmeter-sockjs-stomp/0.1.0}, the
 * handshakes' default {@code User-Agent}, the first line a run prints and logs, and (its version) the timing log's
 * {@code version} column. The version is the jar manifest's {@code Implementation-Version}, which the build writes
 * from the pom; {@code dev} when the classes run from a directory (tests in an IDE).
 */
public final class PluginVersion {

    /** The artifact's name, as Maven Central and the Plugins Manager know it. */
    public static final String NAME = "jmeter-sockjs-stomp";

    /** The version of the jar these classes came from, {@code dev} outside a jar. */
    public static final String VERSION = version();

    /** Name and version as a product token (RFC 9110): {@code jmeter-sockjs-stomp/0.1.0}. */
    public static final String PRODUCT = NAME + "/" + VERSION;

    private PluginVersion() {}

    private static String version() {
        String version = PluginVersion.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? "dev" : version;
    }
}
