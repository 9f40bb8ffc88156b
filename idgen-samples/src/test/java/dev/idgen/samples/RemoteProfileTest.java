package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.TestServices;
import java.io.File;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented {@code remote} profile: the sample takes its segments in blocks from a real idgen server (the jar,
 * {@code idgen-server/target/idgen-server.jar}, as docs/server.md runs it) over MariaDB, and serves IDs from them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("remote")
class RemoteProfileTest {

    private static final String TOKEN = "sample-" + UUID.randomUUID();

    private static final String TABLE = "idgen_sample_remote_"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    private static final Path JAR = Path.of("..", "idgen-server", "target", "idgen-server.jar");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static Process server;

    private static int serverPort;

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        startServer();
        registry.add("idgen.remote.servers", () -> "http://127.0.0.1:" + serverPort);
        registry.add("idgen.remote.token", () -> TOKEN);
    }

    private static void startServer() throws Exception {
        assertThat(JAR)
                .as("the idgen server's jar: build it first with ./mvnw -B -pl idgen-server -am package -DskipTests")
                .isRegularFile();
        try (ServerSocket socket = new ServerSocket(0)) {
            serverPort = socket.getLocalPort();
        }
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        String hash = "sha256:"
                + HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(TOKEN.getBytes(StandardCharsets.UTF_8)));
        server = new ProcessBuilder(List.of(
                        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                        "-Xmx256m",
                        "-jar",
                        JAR.toString(),
                        "--server.address=127.0.0.1",
                        "--server.port=" + serverPort,
                        "--idgen.server.grpc.enabled=false",
                        "--idgen.server.clients.sample.token-hash=" + hash,
                        "--idgen.strategy=segment",
                        "--idgen.jdbc.table=" + TABLE,
                        "--idgen.jdbc.initialize-schema=always",
                        "--spring.datasource.url=" + mariadb.url(),
                        "--spring.datasource.username=" + mariadb.username(),
                        "--spring.datasource.password=" + mariadb.password()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        // JVM start-up on a loaded machine takes up to minutes.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (status(serverPort, "/actuator/health") != 200) {
            assertThat(server.isAlive()).as("the idgen server is running").isTrue();
            assertThat(System.nanoTime() - deadline)
                    .as("the idgen server answers within 3 minutes")
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a poll interval
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
            server.destroyForcibly();
        }
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }

    /** @return the status, or 0 while nothing answers (the server is still starting) */
    private static int status(int port, String path) throws InterruptedException {
        try {
            return get(port, path).statusCode();
        } catch (IOException notYet) {
            return 0;
        }
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesIdsFromBlocksTheServerHandedOut() throws Exception {
        HttpResponse<String> ids = SampleHttp.get(port, "/ids/orders?count=3");
        assertThat(ids.statusCode()).as(ids.body()).isEqualTo(200);
        assertThat(ids.body()).isEqualTo("[\"1\",\"2\",\"3\"]");

        // The block came from the server: its meters count it under this client and name.
        String metrics = get(serverPort, "/actuator/prometheus").body();
        assertThat(metrics)
                .containsPattern("idgen_server_block_ids_total\\{[^}]*client=\"sample\"[^}]*name=\"orders\"");

        HttpResponse<String> health = SampleHttp.get(port, "/actuator/health");
        assertThat(health.body()).contains("\"storeAvailable\":true").contains("127.0.0.1:" + serverPort);
    }
}
