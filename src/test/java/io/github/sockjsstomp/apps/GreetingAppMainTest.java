package io.github.sockjsstomp.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone getting-started app (bench/server_memory.py starts it) says where it listens. */
class GreetingAppMainTest {

    @Test
    void writesTheBoundPortToThePortFile(@TempDir Path dir) throws Exception {
        Path portFile = dir.resolve("greeting.port");
        try (GreetingApp app = GreetingAppMain.start(new String[] {"--port-file", portFile.toString()})) {
            assertThat(app.port()).isPositive();
            assertThat(Files.readString(portFile)).isEqualTo(Integer.toString(app.port()));
        }
    }
}
