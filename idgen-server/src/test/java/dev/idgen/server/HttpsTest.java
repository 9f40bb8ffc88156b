package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
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
 * HTTPS with Spring Boot's own SSL bundle: a self-signed certificate made with openssl for this run, the server's
 * {@code server.ssl.bundle} set to a PEM bundle of it, and a client that trusts exactly that certificate.
 */
class HttpsTest {

    @TempDir
    Path dir;

    @Test
    void idsOverHttpsWithAPemBundle() throws Exception {
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
