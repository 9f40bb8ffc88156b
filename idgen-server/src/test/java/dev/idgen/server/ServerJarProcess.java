package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.ChildJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The server's jar ({@code target/idgen-server.jar}, which failsafe's tests find after the package phase) run as an
 * operator runs it, on free loopback ports, its output in {@code target/<name>/server.log}.
 */
final class ServerJarProcess implements AutoCloseable {

    private static final Path JAR = Path.of("target", "idgen-server.jar");

    final int port = freePort();

    final int managementPort = freePort();

    final int grpcPort = freePort();

    private final Process process;

    private final Path log;

    /**
     * @param name the run's name, for its log's folder
     * @param arguments {@code --property=value} each, beside the ports
     */
    ServerJarProcess(String name, List<String> arguments) throws IOException {
        assertThat(JAR)
                .as(
                        "the server's jar: failsafe runs this after the package phase (./mvnw -B -pl idgen-server -am verify)")
                .isRegularFile();
        List<String> command = ChildJvm.command("256m");
        command.addAll(List.of(
                "-jar",
                JAR.toString(),
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--management.server.port=" + managementPort,
                "--idgen.server.grpc.port=" + grpcPort));
        command.addAll(arguments);
        log = Files.createDirectories(Path.of("target", name)).resolve("server.log");
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Waits until the actuator's health answers 200 on {@code management}, for up to 3 minutes. */
    void awaitHealthy(ServerHttp management) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3); // JVM start-up on a loaded machine
        while (true) {
            assertThat(process.isAlive()).as("the server runs; see " + log).isTrue();
            try {
                if (management.get("/actuator/health", null).status() == 200) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // Not listening yet.
            }
            assertThat(System.nanoTime() - deadline)
                    .as("the server answers within 3 minutes; see " + log)
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a poll interval
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
