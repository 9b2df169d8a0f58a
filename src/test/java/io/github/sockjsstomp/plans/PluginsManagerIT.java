package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.sockjsstomp.demo.DemoServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin installed the way JMeter users install plugins: a fresh JMeter 5.6.3 (this build's, without the plugin)
 * with JMeter's Plugins Manager and cmdrunner from Maven Central, {@code PluginsManagerCMD.sh install} from a
 * repository given with {@code jpgc.repo.address}, served here on loopback. Its file is the repository's entry
 * ({@code plugins-manager/jmeter-sockjs-stomp.json}) as committed, its download pointed at the jar this build made,
 * beside the entries of JMeter's own components it depends on, as the Plugins Manager's repository lists them. Then
 * echo.jmx runs with the installed plugin against the demo server, {@code status} names the version, and
 * {@code uninstall} leaves lib/ext as it was.
 */
class PluginsManagerIT {

    private static final String ID = "jmeter-sockjs-stomp";
    private static final long INSTALL_WAIT_MILLIS = 120_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void installsFromARepositoryFileRunsAPlanSaysItsVersionAndUninstallsClean() throws Exception {
        String version = System.getProperty("project.version", "0.1.0");
        Path jar = Path.of(System.getProperty("plugin.jar", "target/jmeter-sockjs-stomp-" + version + ".jar"));
        Path home = freshJMeter(dir.resolve("jmeter"));
        Path libExt = home.resolve("lib/ext");
        Set<String> before = listing(libExt);
        assertThat(before).noneMatch(f -> f.startsWith(ID));

        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer repository = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String base = "http://127.0.0.1:" + repository.getAddress().getPort();
        byte[] repoJson = repositoryFile(base + "/" + jar.getFileName(), version);
        repository.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            String path = exchange.getRequestURI().getPath();
            if (exchange.getRequestMethod().equals("POST")) {
                // the Plugins Manager reports its installed plugins to the repository's address
                answer(exchange, 200, new byte[0]);
            } else if (path.equals("/repo.json")) {
                answer(exchange, 200, repoJson);
            } else if (path.equals("/" + jar.getFileName())) {
                answer(exchange, 200, Files.readAllBytes(jar));
            } else {
                answer(exchange, 404, new byte[0]);
            }
        });
        repository.start();
        try {
            // C1 only and the serial collector, as for every JVM the tests start: each command lives seconds.
            String jvmArgs = "-Djpgc.repo.address=" + base + "/repo.json " + PlanRun.tmpDirArgument()
                    + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData";

            String available = pluginsManager(home, jvmArgs, "available");
            assertThat(available).contains(ID + "=[" + version + "]");

            pluginsManager(home, jvmArgs, "install", ID);
            // The Plugins Manager moves the jar into place from a process of its own, started as its JVM exits.
            Path installed = libExt.resolve(jar.getFileName());
            awaitListing(libExt, union(before, jar.getFileName().toString()));
            assertThat(installed).hasSameBinaryContentAs(jar);
            assertThat(requests).contains("GET /" + jar.getFileName());

            assertThat(pluginsManager(home, jvmArgs, "status")).contains(ID + "=" + version);

            try (DemoServer server = DemoServer.start(0)) {
                PlanRun run = PlanRun.launch(
                                home,
                                dir.resolve("echo"),
                                "echo",
                                false,
                                List.of(
                                        "port=" + server.port(),
                                        "indexPath=/index",
                                        "pullPath=/clientPull",
                                        "users=2",
                                        "threads=2",
                                        "rampUp=0",
                                        // room for replies after the connects on a loaded machine (index 0.9 s,
                                        // session 1.5 s in one CI run that then had none in 5 s)
                                        "duration=10",
                                        "pauseMillis=300"),
                                List.of())
                        .await();
                assertThat(run.rows())
                        .allSatisfy(r -> assertThat(r.get("success"))
                                .as("%s %s %s", r.get("label"), r.get("responseCode"), r.get("responseMessage"))
                                .isEqualTo("true"));
                assertThat(run.rows()).anyMatch(r -> r.get("label").equals("reply /app/echo"));
                List<String> stompLines = Files.readAllLines(run.dir().resolve("console.txt")).stream()
                        .filter(line -> line.startsWith("stomp"))
                        .toList();
                assertThat(stompLines).first().isEqualTo("stomp: " + ID + "/" + version);
                assertThat(Files.readString(run.dir().resolve("jmeter.log"))).contains("stomp: " + ID + "/" + version);
                int versionColumn = List.of(PlanRun.TIMING_HEADER.split(",")).indexOf("version");
                assertThat(run.timing())
                        .isNotEmpty()
                        .allSatisfy(record -> assertThat(record[1]).isEqualTo("ANSWERED"))
                        .allSatisfy(record -> assertThat(record[versionColumn]).isEqualTo(version));
            }

            pluginsManager(home, jvmArgs, "uninstall", ID);
            awaitListing(libExt, before);
            assertThat(pluginsManager(home, jvmArgs, "status")).doesNotContain(ID);
        } finally {
            repository.stop(0);
        }
    }

    /**
     * A JMeter home as a user's fresh download of JMeter 5.6.3 is, without the plugin: this build's (made from Maven
     * Central's artifacts, scripts/jmeter-home.sh), copied; then the Plugins Manager's jar in lib/ext, cmdrunner in
     * lib/, and the Plugins Manager's own installer writes bin/PluginsManagerCMD.sh, as its documentation has users
     * do.
     */
    private Path freshJMeter(Path home) throws Exception {
        Path built = PlanRun.jmeterHome();
        try (Stream<Path> tree = Files.walk(built)) {
            for (Path source : tree.toList()) {
                String name = source.getFileName().toString();
                if (name.startsWith(ID) || name.endsWith(".jsa")) {
                    continue;
                }
                Path target = home.resolve(built.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        Path manager = Path.of(System.getProperty("plugins-manager.jar"));
        Path cmdrunner = Path.of(System.getProperty("cmdrunner.jar"));
        Files.copy(manager, home.resolve("lib/ext").resolve(manager.getFileName()));
        Files.copy(cmdrunner, home.resolve("lib").resolve(cmdrunner.getFileName()));
        Path output = dir.resolve("installer.txt");
        List<String> command = List.of(
                "java",
                "-cp",
                home.resolve("lib/ext").resolve(manager.getFileName()).toString(),
                "org.jmeterplugins.repository.PluginManagerCMDInstaller");
        Process installer = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        assertThat(PlanRun.waitFor(installer, command, output))
                .as(Files.readString(output))
                .isZero();
        assertThat(home.resolve("bin/PluginsManagerCMD.sh")).exists();
        return home;
    }

    /**
     * The repository file the Plugins Manager reads: our entry as committed but for its download, and JMeter's own
     * components it depends on (bound to JMeter's version, as the real repository has them; never downloaded: this
     * JMeter has them).
     */
    private static byte[] repositoryFile(String download, String version) throws IOException {
        ArrayNode ours = (ArrayNode) JSON.readTree(PlanRun.projectRoot()
                .resolve("plugins-manager/jmeter-sockjs-stomp.json")
                .toFile());
        ((ObjectNode) ours.get(0).get("versions").get(version)).put("downloadUrl", download);
        ArrayNode file = JSON.createArrayNode();
        file.add(jmeterComponent("jmeter-core", "org.apache.jmeter.engine.JMeterEngine", "ApacheJMeter_core"));
        file.add(jmeterComponent(
                "jmeter-java", "org.apache.jmeter.protocol.java.sampler.JavaSampler", "ApacheJMeter_java"));
        file.addAll(ours);
        return JSON.writeValueAsBytes(file);
    }

    private static ObjectNode jmeterComponent(String id, String markerClass, String artifact) {
        ObjectNode entry = JSON.createObjectNode()
                .put("id", id)
                .put("name", id)
                .put("description", "")
                .put("screenshotUrl", "")
                .put("helpUrl", "")
                .put("vendor", "JMeter Core Team")
                .put("markerClass", markerClass)
                .put("canUninstall", false);
        entry.putObject("versions")
                .putObject("")
                .put(
                        "downloadUrl",
                        "https://repo1.maven.org/maven2/org/apache/jmeter/%1$s/%%1$s/%1$s-%%1$s.jar"
                                .formatted(artifact));
        return entry;
    }

    private String pluginsManager(Path home, String jvmArgs, String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("bash", home.resolve("bin/PluginsManagerCMD.sh").toString()));
        command.addAll(List.of(args));
        Path output = dir.resolve("plugins-manager-" + String.join("-", args) + ".txt");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("JVM_ARGS", jvmArgs);
        int exit = PlanRun.waitFor(builder.start(), command, output);
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(exit).as("%s\n%s", command, printed).isZero();
        return printed;
    }

    /** Waits (bounded) until the folder holds exactly these files. */
    private static void awaitListing(Path folder, Set<String> expected) throws Exception {
        long deadline = System.currentTimeMillis() + INSTALL_WAIT_MILLIS;
        while (!listing(folder).equals(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(listing(folder)).as("%s", folder).isEqualTo(expected);
    }

    private static Set<String> listing(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    private static Set<String> union(Set<String> files, String file) {
        Set<String> all = new TreeSet<>(files);
        all.add(file);
        return all;
    }

    private static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
