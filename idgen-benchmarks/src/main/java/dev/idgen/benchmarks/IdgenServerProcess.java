package dev.idgen.benchmarks;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An idgen server started from its jar ({@code idgen-server/target/idgen-server.jar}, built by {@code run.sh}) at its
 * defaults but for the settings a server cannot run without: a client token and, for segments, the database.
 */
final class IdgenServerProcess implements AutoCloseable {

    static final String JAR = "idgen-server/target/idgen-server.jar";

    private final Process process;

    private final int port;

    private final String token;

    private IdgenServerProcess(Process process, int port, String token) {
        this.process = process;
        this.port = port;
        this.token = token;
    }

    /**
     * @param properties the server's {@code --name=value} arguments beside port and token
     * @throws IllegalStateException when the jar is missing or the server does not answer within 3 minutes
     */
    static IdgenServerProcess start(List<String> properties) throws Exception {
        if (!Files.isRegularFile(Path.of(JAR))) {
            throw new IllegalStateException(JAR + " is missing: build it with ./mvnw -B -pl idgen-server -am package"
                    + " -DskipTests (run.sh does), and run from the repository's root");
        }
        int port;
        int managementPort;
        try (ServerSocket socket = new ServerSocket(0);
                ServerSocket management = new ServerSocket(0)) {
            port = socket.getLocalPort();
            managementPort = management.getLocalPort();
        }
        String token = "bench-" + System.nanoTime();
        String hash = "sha256:"
                + HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-Xms512m",
                "-Xmx512m",
                "-jar",
                JAR,
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--management.server.port=" + managementPort,
                "--idgen.server.grpc.enabled=false",
                "--idgen.server.clients.bench.token-hash=" + hash));
        command.addAll(properties);
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        IdgenServerProcess server = new IdgenServerProcess(process, port, token);
        server.awaitUp(managementPort);
        return server;
    }

    private void awaitUp(int managementPort) throws InterruptedException {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the idgen server exited with " + process.exitValue());
            }
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a poll interval
        }
        throw new IllegalStateException("the idgen server did not answer on " + url() + " within 3 minutes");
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    long pid() {
        return process.pid();
    }

    String token() {
        return token;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
