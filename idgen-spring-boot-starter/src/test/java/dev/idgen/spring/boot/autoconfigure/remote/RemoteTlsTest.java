package dev.idgen.spring.boot.autoconfigure.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.ScriptedIdgenServer;
import dev.idgen.test.services.TestCertificates;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
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

    @TempDir
    static Path dir;

    private static TestCertificates certificates;

    private static ScriptedIdgenServer server;

    @BeforeAll
    static void startHttpsServer() throws Exception {
        certificates = TestCertificates.make(dir, "IP:127.0.0.1");
        server = ScriptedIdgenServer.https(new AtomicLong(), certificates.serverContext());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class, SslAutoConfiguration.class))
                .withPropertyValues(
                        "idgen.strategy=segment",
                        "idgen.segment.store=remote",
                        "idgen.remote.servers=" + server.uri(),
                        "spring.ssl.bundle.pem.idgen-ca.truststore.certificate=file:" + certificates.caCertificate());
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
