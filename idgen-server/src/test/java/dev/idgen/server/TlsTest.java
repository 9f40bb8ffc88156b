package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.server.grpc.v1.IdgenGrpc;
import dev.idgen.server.grpc.v1.NextIdsRequest;
import dev.idgen.server.grpc.v1.NextIdsResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * TLS with Spring Boot's own SSL bundle, on both faces: a self-signed certificate made with openssl for this run, a PEM
 * bundle of it as the server's {@code server.ssl.bundle}, which HTTPS and (by default) gRPC use, and
 * clients that trust exactly that certificate: the JDK's HttpClient, idgen-client's RemoteSegmentStore and a gRPC
 * channel.
 */
class TlsTest {

    @TempDir
    Path dir;

    @Test
    void idsAndBlocksOverHttpsAndGrpcWithOnePemBundle() throws Exception {
        Path certificate = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                key.toString(),
                "-out",
                certificate.toString(),
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost,IP:127.0.0.1");

        try (ConfigurableApplicationContext server = ServerApps.start(
                "--idgen.server.clients.app.token-hash=" + ServerHttp.tokenHash("tls-token"),
                "--spring.ssl.bundle.pem.web.keystore.certificate=file:" + certificate,
                "--spring.ssl.bundle.pem.web.keystore.private-key=file:" + key,
                // gRPC takes HTTP's bundle when idgen.server.grpc.ssl-bundle is not set.
                "--server.ssl.bundle=web")) {
            String base = "https://localhost:" + ServerApps.port(server);
            HttpClient trusting = HttpClient.newBuilder()
                    .sslContext(trusting(certificate))
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            ServerHttp https = new ServerHttp(trusting, base);
            ServerHttp.Answer ids = https.get("/ids/orders?count=3", "tls-token");
            assertThat(ids.status()).as(ids.toString()).isEqualTo(200);
            assertThat(ids.json()).hasSize(3);
            assertThat(https.get("/ids/orders", null).status()).isEqualTo(401);

            // A client that does not trust the certificate gets no answer at all.
            ServerHttp untrusting = new ServerHttp(base);
            assertThatThrownBy(() -> untrusting.get("/ids/orders", "tls-token"))
                    .hasRootCauseInstanceOf(java.security.cert.CertPathBuilderException.class);

            // The server tier's client over HTTPS: blocks of a Snowflake name are refused, but only after the TLS
            // handshake and the token check passed, which is what this checks.
            try (RemoteSegmentStore remote = RemoteSegmentStore.builder()
                    .servers(URI.create(base))
                    .token("tls-token")
                    .sslContext(trusting(certificate))
                    .build()) {
                remote.checkAvailable();
            }

            int grpcPort = server.getEnvironment().getRequiredProperty("local.grpc.port", Integer.class);
            ManagedChannel channel = Grpc.newChannelBuilderForAddress(
                            "localhost",
                            grpcPort,
                            TlsChannelCredentials.newBuilder()
                                    .trustManager(certificate.toFile())
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
                        .extracting(
                                e -> ((StatusRuntimeException) e).getStatus().getCode())
                        .isEqualTo(Status.Code.UNAVAILABLE);
            } finally {
                plain.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    private static SSLContext trusting(Path certificate) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trusted.setCertificateEntry(
                    "server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private void openssl(String... arguments) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add("openssl");
        command.addAll(java.util.List.of(arguments));
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile())
                .start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("openssl within 60 s")
                .isTrue();
        assertThat(process.exitValue())
                .as("openssl %s: %s", command, Files.readString(dir.resolve("openssl.log")))
                .isZero();
    }
}
