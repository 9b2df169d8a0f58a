package io.github.sockjsstomp.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.sockjsstomp.demo.DemoServer;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * https and wss: the demo server on TLS requiring a client certificate, with a server and a client certificate
 * made by keytool at test time, and the real JMeter launcher given the JVM's trust and key stores as a user does
 * (JVM_ARGS or bin/system.properties: {@code javax.net.ssl.trustStore}, {@code javax.net.ssl.keyStore}).
 */
class TlsIT {

    private static final String PASSWORD = "test-only-pass";

    @TempDir
    static Path dir;

    private static DemoServer server;
    private static Path clientKeys;
    private static Path clientTrust;

    @BeforeAll
    static void startServerOnTls() throws Exception {
        PlanRun.jmeterHome();
        Path serverKeys = dir.resolve("server.p12");
        Path serverTrust = dir.resolve("server-trust.p12");
        clientKeys = dir.resolve("client.p12");
        clientTrust = dir.resolve("client-trust.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-keystore",
                serverKeys.toString());
        keytool(
                "-genkeypair",
                "-alias",
                "client",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=load-generator",
                "-keystore",
                clientKeys.toString());
        // Each side trusts the other's certificate: what keytool -exportcert and -importcert do, without a JVM each.
        trustOnly(serverKeys, "server", clientTrust);
        trustOnly(clientKeys, "client", serverTrust);
        server = DemoServer.start(0, new DemoServer.Tls(serverKeys, serverTrust, PASSWORD));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** A PKCS12 trust store holding {@code alias}'s certificate from {@code keys}, and nothing else. */
    private static void trustOnly(Path keys, String alias, Path trust) throws Exception {
        KeyStore from = KeyStore.getInstance(keys.toFile(), PASSWORD.toCharArray());
        KeyStore to = KeyStore.getInstance("PKCS12");
        to.load(null, null);
        to.setCertificateEntry(alias, from.getCertificate(alias));
        try (OutputStream out = Files.newOutputStream(trust)) {
            to.store(out, PASSWORD.toCharArray());
        }
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(Arrays.asList(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        Path output = dir.resolve("keytool.out");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        assertThat(PlanRun.waitFor(process, command, output))
                .as(Files.readString(output))
                .isZero();
    }

    private static List<String> trustAndKeys(boolean withClientCertificate) {
        List<String> jvm = new ArrayList<>(List.of(
                "-Djavax.net.ssl.trustStore=" + clientTrust,
                "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
                "-Djavax.net.ssl.trustStoreType=PKCS12"));
        if (withClientCertificate) {
            jvm.addAll(List.of(
                    "-Djavax.net.ssl.keyStore=" + clientKeys,
                    "-Djavax.net.ssl.keyStorePassword=" + PASSWORD,
                    "-Djavax.net.ssl.keyStoreType=PKCS12"));
        }
        return jvm;
    }

    private static List<String> overTls(String transport, String endpoint) {
        return List.of(
                "scheme=https",
                "host=127.0.0.1",
                "port=" + server.port(),
                "transport=" + transport,
                "endpoint=" + endpoint,
                "indexPath=/index",
                "pullPath=/clientPull",
                "replySamples=false",
                "threads=2",
                "rampUp=0",
                // TLS handshakes (RSA keys, the JIT held at C1 in these runs) on a loaded machine took most of a 5 s
                // run: a CI run ended with both users connected and not one message sent.
                "duration=10",
                "messagesPerSecond=10",
                "replyTimeoutMillis=3000");
    }

    /** SockJS over wss, after the login steps and SockJS's info request over https. */
    @Test
    void sockJsOverWssWithAClientCertificate() throws Exception {
        assertEveryMessageAnswered(
                PlanRun.launch(dir.resolve("websocket"), "send", false, overTls("websocket", "/ws"), trustAndKeys(true))
                        .await());
    }

    @Test
    void plainWebSocketOverWssWithAClientCertificate() throws Exception {
        List<String> properties = new ArrayList<>(overTls("raw", "/stomp-ws"));
        properties.addAll(List.of("indexPath=none", "pullPath=none"));
        assertEveryMessageAnswered(PlanRun.launch(dir.resolve("raw"), "send", false, properties, trustAndKeys(true))
                .await());
    }

    @Test
    void withoutTheClientCertificateTheServerRefusesEveryConnect() throws Exception {
        List<String> properties = new ArrayList<>(overTls("raw", "/stomp-ws"));
        properties.addAll(List.of("indexPath=none", "pullPath=none"));
        PlanRun run = PlanRun.launch(dir.resolve("no-certificate"), "send", false, properties, trustAndKeys(false))
                .await();
        List<Map<String, String>> sends = run.rows().stream()
                .filter(r -> r.get("label").startsWith("send"))
                .toList();
        assertThat(sends).isNotEmpty().allSatisfy(r -> {
            assertThat(r.get("success")).isEqualTo("false");
            assertThat(r.get("responseCode")).isEqualTo("ConnectFailed");
        });
        assertThat(run.timing()).isNotEmpty().allSatisfy(r -> assertThat(r[1]).isEqualTo("FAILED"));
        assertThat(Files.readString(run.dir().resolve("jmeter.log"))).doesNotContain(PASSWORD);
    }

    private static void assertEveryMessageAnswered(PlanRun run) throws Exception {
        assertThat(run.count("send"))
                .as("send samples; console: %s", Files.readString(run.dir().resolve("console.txt")))
                .isPositive();
        assertThat(run.rows())
                .allSatisfy(r -> assertThat(r.get("success"))
                        .as("%s %s %s", r.get("label"), r.get("responseCode"), r.get("responseMessage"))
                        .isEqualTo("true"));
        List<String[]> timing = run.timing();
        assertThat(timing).isNotEmpty().allSatisfy(r -> assertThat(r[1]).isEqualTo("ANSWERED"));
        assertThat(run.count("send")).isEqualTo(timing.size());
    }
}
