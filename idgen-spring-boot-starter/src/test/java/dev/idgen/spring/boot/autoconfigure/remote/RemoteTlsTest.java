package dev.idgen.spring.boot.autoconfigure.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.ScriptedIdgenServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * https servers with a private CA: idgen.remote.ssl.bundle names a PEM bundle holding the CA's certificate, and the
 * client then trusts the server's certificate (and checks its name); without it the handshake fails.
 */
class RemoteTlsTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static ScriptedIdgenServer server;

    @BeforeAll
    static void startHttpsServer() throws Exception {
        Files.writeString(dir.resolve("san.cnf"), "subjectAltName=IP:127.0.0.1\n");
        openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=idgen test CA");
        openssl(
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=127.0.0.1");
        openssl(
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                "server.pem",
                "-days",
                "2",
                "-extfile",
                "san.cnf");
        openssl(
                "pkcs12",
                "-export",
                "-in",
                "server.pem",
                "-inkey",
                "server.key",
                "-out",
                "server.p12",
                "-passout",
                "pass:" + PASSWORD);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(managers.getKeyManagers(), null, null);
        server = ScriptedIdgenServer.https(new AtomicLong(), tls);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static void openssl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("openssl " + String.join(" ", arguments) + " failed: "
                    + Files.readString(dir.resolve("openssl.log")));
        }
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class, SslAutoConfiguration.class))
                .withPropertyValues(
                        "idgen.strategy=segment",
                        "idgen.segment.store=remote",
                        "idgen.remote.servers=" + server.uri(),
                        "spring.ssl.bundle.pem.idgen-ca.truststore.certificate=file:" + dir.resolve("ca.pem"));
    }

    @Test
    void theBundlesCaLetsTheClientTrustTheServer() {
        assertThat(server.uri().getScheme()).isEqualTo("https");
        runner().withPropertyValues("idgen.remote.ssl.bundle=idgen-ca").run(context -> {
            assertThat(context).hasNotFailed();
            IdService ids = context.getBean(IdService.class);
            long first = ids.nextId("orders");
            assertThat(ids.nextId("orders")).isGreaterThan(first);
            assertThat(server.blockRequests()).isPositive();
        });
    }

    @Test
    void withoutTheBundleTheHandshakeFails() {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            SharedRemoteStore shared = context.getBean(SharedRemoteStore.class);
            // The JDK's default trust does not know the private CA.
            assertThatThrownBy(() -> shared.store().allocate("orders", 10))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining(server.uri().toString())
                    .hasMessageContaining("SSLHandshakeException");
        });
    }
}
