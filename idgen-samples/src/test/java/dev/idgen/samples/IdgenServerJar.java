package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.ChildJvm;
import dev.idgen.test.services.TestServices;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real idgen server for the sample's {@code remote} profile: the jar ({@code idgen-server/target/idgen-server.jar},
 * as docs/server.md runs it) over MariaDB, in a table of its own, with one client ({@code sample}) and its token.
 */
final class IdgenServerJar implements AutoCloseable {

    private static final Path JAR = Path.of("..", "idgen-server", "target", "idgen-server.jar");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String token = "sample-" + UUID.randomUUID();

    private final String table = "idgen_sample_remote_"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    private final int port;

    /** The actuator's port, which the server keeps apart from the API's. */
    private final int managementPort;

    private final Process process;

    private IdgenServerJar() throws Exception {
        assertThat(JAR)
                .as("the idgen server's jar: build it first with ./mvnw -B -pl idgen-server -am package -DskipTests")
                .isRegularFile();
        try (ServerSocket socket = new ServerSocket(0);
                ServerSocket management = new ServerSocket(0)) {
            port = socket.getLocalPort();
            managementPort = management.getLocalPort();
        }
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        String hash = "sha256:"
                + HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        List<String> command = ChildJvm.command("256m");
        command.addAll(List.of(
                "-jar",
                JAR.toString(),
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--management.server.port=" + managementPort,
                "--idgen.server.grpc.enabled=false",
                "--idgen.server.clients.sample.token-hash=" + hash,
                "--idgen.strategy=segment",
                "--idgen.jdbc.table=" + table,
                "--idgen.jdbc.initialize-schema=always",
                "--spring.datasource.url=" + mariadb.url(),
                "--spring.datasource.username=" + mariadb.username(),
                "--spring.datasource.password=" + mariadb.password()));
        process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    /**
     * Starts the server and waits until it answers its health check.
     */
    static IdgenServerJar start() throws Exception {
        IdgenServerJar server = new IdgenServerJar();
        try {
            // JVM start-up on a loaded machine takes up to minutes.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (server.status("/actuator/health") != 200) {
                assertThat(server.process.isAlive())
                        .as("the idgen server is running")
                        .isTrue();
                assertThat(System.nanoTime() - deadline)
                        .as("the idgen server answers within 3 minutes")
                        .isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a poll interval
            }
            return server;
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /** @return its HTTP port on 127.0.0.1 */
    int port() {
        return port;
    }

    /** @return the token of its client {@code sample} */
    String token() {
        return token;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(port, path);
    }

    /** @return the answer of its actuator, on the management port */
    HttpResponse<String> management(String path) throws IOException, InterruptedException {
        return send(managementPort, path);
    }

    private static HttpResponse<String> send(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** @return the status, or 0 while nothing answers (the server is still starting) */
    private int status(String path) throws InterruptedException {
        try {
            return management(path).statusCode();
        } catch (IOException notYet) {
            return 0;
        }
    }

    /** Stops the server and drops its table. */
    @Override
    public void close() throws Exception {
        process.destroy();
        process.waitFor(30, TimeUnit.SECONDS);
        process.destroyForcibly();
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
