package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.server.grpc.v1.IdgenGrpc;
import dev.idgen.server.grpc.v1.NextIdsRequest;
import dev.idgen.server.grpc.v1.NextIdsResponse;
import dev.idgen.test.services.TestCertificates;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * TLS with Spring Boot's own SSL bundle, on both faces: a server certificate from the test's own authority, a PEM
 * bundle of it as the server's {@code server.ssl.bundle}, which HTTPS and (by default) gRPC use, and
 * clients that trust exactly that authority: the JDK's HttpClient, idgen-client's RemoteSegmentStore and a gRPC
 * channel.
 */
class TlsTest {

    @TempDir
    Path dir;

    @Test
    void idsAndBlocksOverHttpsAndGrpcWithOnePemBundle() throws Exception {
        TestCertificates certificates = TestCertificates.make(dir, "DNS:localhost,IP:127.0.0.1");
        Path certificate = certificates.serverCertificate();
        Path key = certificates.serverKey();

        try (ConfigurableApplicationContext server = ServerApps.start(
                "--idgen.server.clients.app.token-hash=" + ServerHttp.tokenHash("tls-token"),
                "--spring.ssl.bundle.pem.web.keystore.certificate=file:" + certificate,
                "--spring.ssl.bundle.pem.web.keystore.private-key=file:" + key,
                // gRPC takes HTTP's bundle when idgen.server.grpc.ssl-bundle is not set.
                "--server.ssl.bundle=web")) {
            String base = "https://localhost:" + ServerApps.port(server);
            HttpClient trusting = HttpClient.newBuilder()
                    .sslContext(certificates.trustingCa())
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            ServerHttp https = new ServerHttp(trusting, base);
            ServerHttp.Answer ids = https.get("/ids/orders?count=3", "tls-token");
            assertThat(ids.status()).as(ids.toString()).isEqualTo(200);
            assertThat(ids.json()).hasSize(3);
            assertThat(https.get("/ids/orders", null).status()).isEqualTo(401);

            // A client that does not trust the authority gets no answer at all.
            ServerHttp untrusting = new ServerHttp(base);
            assertThatThrownBy(() -> untrusting.get("/ids/orders", "tls-token"))
                    .hasRootCauseInstanceOf(java.security.cert.CertPathBuilderException.class);

            // The server tier's client over HTTPS: blocks of a Snowflake name are refused, but only after the TLS
            // handshake and the token check passed, which is what this checks.
            try (RemoteSegmentStore remote = RemoteSegmentStore.builder()
                    .servers(URI.create(base))
                    .token("tls-token")
                    .sslContext(certificates.trustingCa())
                    .build()) {
                remote.checkAvailable();
            }

            assertGrpcServesTlsOnly(server, certificates);
        }
    }

    @Test
    void grpcServesTheTlsOfTheClassicServerSslPropertiesAndBindsWhereHttpBinds() throws Exception {
        TestCertificates certificates = TestCertificates.make(dir, "DNS:localhost,IP:127.0.0.1");
        // HTTPS configured without a bundle: gRPC used to stay in plain text beside it, carrying the same tokens.
        try (ConfigurableApplicationContext server = ServerApps.start(
                "--idgen.server.clients.app.token-hash=" + ServerHttp.tokenHash("tls-token"),
                "--server.address=127.0.0.1",
                "--server.ssl.certificate=file:" + certificates.serverCertificate(),
                "--server.ssl.certificate-private-key=file:" + certificates.serverKey())) {
            assertGrpcServesTlsOnly(server, certificates);
            // gRPC binds where HTTP binds: loopback here, so this host's other addresses refuse the connection.
            assertRefusedBeyondLoopback(server.getEnvironment().getRequiredProperty("local.grpc.port", Integer.class));
        }
    }

    /** This host's addresses other than loopback refuse connections to {@code port}. */
    static void assertRefusedBeyondLoopback(int port) throws Exception {
        InetAddress external = NetworkInterface.networkInterfaces()
                .filter(network -> {
                    try {
                        return network.isUp() && !network.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> address instanceof Inet4Address)
                .findFirst()
                .orElseThrow(() -> new AssertionError("this test needs an address other than loopback"));
        assertThatThrownBy(() -> {
                    try (Socket socket = new Socket()) {
                        socket.connect(new InetSocketAddress(external, port), 5_000);
                    }
                })
                .as("gRPC on " + external + ":" + port)
                .isInstanceOf(ConnectException.class);
    }

    /** A gRPC client trusting the test's authority is served; one in plain text gets no answer. */
    private static void assertGrpcServesTlsOnly(ConfigurableApplicationContext server, TestCertificates certificates)
            throws Exception {
        assertGrpcServesTlsOnly(
                server.getEnvironment().getRequiredProperty("local.grpc.port", Integer.class), certificates);
    }

    /** A gRPC client trusting the test's authority is served on {@code grpcPort}; one in plain text gets no answer. */
    static void assertGrpcServesTlsOnly(int grpcPort, TestCertificates certificates) throws Exception {
        ManagedChannel channel = Grpc.newChannelBuilderForAddress(
                        "localhost",
                        grpcPort,
                        TlsChannelCredentials.newBuilder()
                                .trustManager(certificates.caCertificate().toFile())
                                .build())
                .build();
        try {
            Metadata headers = new Metadata();
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer tls-token");
            NextIdsResponse grpcIds = IdgenGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                    .withDeadlineAfter(30, TimeUnit.SECONDS)
                    .nextIds(NextIdsRequest.newBuilder()
                            .setName("orders")
                            .setCount(2)
                            .build());
            assertThat(grpcIds.getIdsList()).hasSize(2);
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }

        // A gRPC client in plain text gets no answer from the TLS port.
        ManagedChannel plain = Grpc.newChannelBuilderForAddress(
                        "localhost", grpcPort, InsecureChannelCredentials.create())
                .build();
        try {
            assertThatThrownBy(() -> IdgenGrpc.newBlockingStub(plain)
                            .withDeadlineAfter(30, TimeUnit.SECONDS)
                            .nextIds(NextIdsRequest.newBuilder()
                                    .setName("orders")
                                    .build()))
                    .isInstanceOf(StatusRuntimeException.class)
                    .extracting(e -> ((StatusRuntimeException) e).getStatus().getCode())
                    .isEqualTo(Status.Code.UNAVAILABLE);
        } finally {
            plain.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
