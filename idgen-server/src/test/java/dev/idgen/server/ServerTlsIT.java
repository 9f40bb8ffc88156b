package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.TestCertificates;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's jar with HTTPS configured the classic way ({@code server.ssl.certificate}, no bundle) on loopback: gRPC
 * serves the same TLS and binds where HTTP binds. Before, it served plain text on every interface beside HTTPS,
 * carrying the same bearer tokens.
 */
class ServerTlsIT {

    @TempDir
    Path dir;

    @Test
    void grpcServesHttpsTlsAndBindsWhereHttpBinds() throws Exception {
        TestCertificates certificates = TestCertificates.make(dir, "DNS:localhost,IP:127.0.0.1");
        try (ServerJarProcess server = new ServerJarProcess(
                "tls",
                List.of(
                        "--idgen.server.clients.app.token-hash=" + ServerHttp.tokenHash("tls-token"),
                        "--server.ssl.certificate=file:" + certificates.serverCertificate(),
                        "--server.ssl.certificate-private-key=file:" + certificates.serverKey()))) {
            HttpClient trusting = HttpClient.newBuilder()
                    .sslContext(certificates.trustingCa())
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            // The actuator's port takes the same TLS.
            server.awaitHealthy(new ServerHttp(trusting, "https://localhost:" + server.managementPort));
            ServerHttp.Answer ids = new ServerHttp(trusting, "https://localhost:" + server.port)
                    .get("/ids/orders?count=2", "tls-token");
            assertThat(ids.status()).as(ids.toString()).isEqualTo(200);

            TlsTest.assertGrpcServesTlsOnly(server.grpcPort, certificates);
            TlsTest.assertRefusedBeyondLoopback(server.grpcPort);
        }
    }
}
