package dev.idgen.spring.boot.autoconfigure.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.test.services.OwnTlsEtcd;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter's etcd client over TLS on real etcd members of the test's own: the server's certificate trusted through
 * a Spring Boot SSL bundle ({@code idgen.etcd.ssl.bundle}), a client certificate from the same bundle when etcd asks
 * for one ({@code --client-cert-auth}), and etcd's user authentication ({@code idgen.etcd.username/password}). Each
 * failure must come within the etcd timeout, as a {@link StoreUnavailableException} or a start-up failure naming what
 * is wrong, never as a hang.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class IdgenEtcdTlsTest {

    /** {@code idgen.etcd.timeout} of every context here. */
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    /** What a failing call may take beyond {@link #TIMEOUT} on a loaded machine. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    private static OwnTlsEtcd tls;
    private static OwnTlsEtcd mutualTls;
    private static OwnTlsEtcd withAuth;
    private static OwnTlsEtcd localhostOnly;

    private final String namespace = "t" + UUID.randomUUID().toString().substring(0, 8) + "/";

    @BeforeAll
    static void startMembers() throws Exception {
        tls = OwnTlsEtcd.start(false);
        mutualTls = OwnTlsEtcd.start(true);
        withAuth = OwnTlsEtcd.start(false);
        withAuth.enableAuth("app", "apppw", "idgen-auth/");
        localhostOnly = OwnTlsEtcd.start(false, "DNS:localhost");
    }

    @AfterAll
    static void stopMembers() {
        for (OwnTlsEtcd etcd : new OwnTlsEtcd[] {tls, mutualTls, withAuth, localhostOnly}) {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    private ApplicationContextRunner runner(OwnTlsEtcd etcd) {
        return withoutBundle(etcd)
                .withPropertyValues(
                        "spring.ssl.bundle.pem.etcd.truststore.certificate=file:" + etcd.caCertificate(),
                        "idgen.etcd.ssl.bundle=etcd");
    }

    private ApplicationContextRunner withoutBundle(OwnTlsEtcd etcd) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        SslAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenHealthContributorAutoConfiguration.class))
                .withPropertyValues(
                        "idgen.strategy=segment",
                        "idgen.segment.store=etcd",
                        "idgen.etcd.endpoints=" + etcd.endpoint(),
                        "idgen.etcd.namespace=" + namespace,
                        "idgen.etcd.timeout=" + TIMEOUT.toMillis() + "ms");
    }

    private static ApplicationContextRunner withClientCertificate(ApplicationContextRunner runner, OwnTlsEtcd etcd) {
        return runner.withPropertyValues(
                "spring.ssl.bundle.pem.etcd.keystore.certificate=file:" + etcd.clientCertificate(),
                "spring.ssl.bundle.pem.etcd.keystore.private-key=file:" + etcd.clientKey());
    }

    private static void idsAreServed(IdService ids) {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 2500; i++) {
            assertThat(seen.add(ids.nextId("orders"))).isTrue();
        }
    }

    /** Asserts that the first ID fails as the store being unavailable, within the timeout and a little. */
    private static StoreUnavailableException firstIdFails(IdService ids) {
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            ids.nextId("orders");
        } catch (RuntimeException e) {
            thrown = e;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(thrown)
                .as("the first ID without the right credentials")
                .isInstanceOf(StoreUnavailableException.class);
        assertThat(took).as("how long the failing call took").isLessThan(TIMEOUT.plus(SLACK));
        return (StoreUnavailableException) thrown;
    }

    @Test
    void idsComeOverTlsWithTheServerTrustedThroughTheBundle() {
        runner(tls).run(context -> {
            assertThat(context).hasNotFailed();
            idsAreServed(context.getBean(IdService.class));
            Health health = context.getBean(IdgenHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails().get("etcd")).isInstanceOf(Map.class);
        });
    }

    @Test
    void aClientCertificateFromTheBundleIsShownWhenEtcdAsksForOne() {
        withClientCertificate(runner(mutualTls), mutualTls).run(context -> {
            assertThat(context).hasNotFailed();
            idsAreServed(context.getBean(IdService.class));
            assertThat(context.getBean(IdgenHealthIndicator.class).health(true).getStatus())
                    .isEqualTo(Status.UP);
        });
    }

    @Test
    void withoutAClientCertificateTheFirstIdFailsInsteadOfHanging() {
        runner(mutualTls).run(context -> {
            assertThat(context).hasNotFailed();
            StoreUnavailableException failure = firstIdFails(context.getBean(IdService.class));
            assertThat(failure).hasMessageContaining(mutualTls.endpoint());
        });
    }

    @Test
    void theRightPasswordServesIds() {
        runner(withAuth)
                .withPropertyValues(
                        "idgen.etcd.namespace=idgen-auth/right/",
                        "idgen.etcd.username=app",
                        "idgen.etcd.password=apppw")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    idsAreServed(context.getBean(IdService.class));
                    assertThat(context.getBean(IdgenHealthIndicator.class)
                                    .health(true)
                                    .getStatus())
                            .isEqualTo(Status.UP);
                });
    }

    @Test
    void aWrongPasswordFailsTheFirstIdNamingTheEndpoints() {
        runner(withAuth)
                .withPropertyValues(
                        "idgen.etcd.namespace=idgen-auth/wrong/",
                        "idgen.etcd.username=app",
                        "idgen.etcd.password=wrong")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StoreUnavailableException failure = firstIdFails(context.getBean(IdService.class));
                    assertThat(failure)
                            .hasMessageContaining(withAuth.endpoint())
                            .hasMessageContaining("authentication failed");
                });
    }

    @Test
    void aUsernameWithoutAPasswordFailsStartUpNamingThePassword() {
        runner(withAuth)
                .withPropertyValues("idgen.etcd.username=app")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.etcd.password"));
    }

    @Test
    void aPasswordWithoutAUsernameFailsStartUpNamingTheUsername() {
        runner(withAuth)
                .withPropertyValues("idgen.etcd.password=apppw")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.etcd.username"));
    }

    @Test
    void anUnknownBundleFailsStartUpNamingIt() {
        runner(tls)
                .withPropertyValues("idgen.etcd.ssl.bundle=no-such-bundle")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("no-such-bundle")
                        .hasMessageContaining("idgen.etcd.ssl.bundle"));
    }

    @Test
    void httpAndHttpsEndpointsTogetherFailStartUpNamingTheEndpoints() {
        runner(tls)
                .withPropertyValues("idgen.etcd.endpoints=" + tls.endpoint() + ",http://127.0.0.1:2379")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.etcd.endpoints"));
    }

    @Test
    void theServerCertificateMustNameTheHostDialled() {
        runner(localhostOnly).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(firstIdFails(context.getBean(IdService.class)))
                    .as("a certificate for localhost only, dialled as 127.0.0.1")
                    .hasMessageContaining(localhostOnly.endpoint());
        });
        String byName = localhostOnly.endpoint().replace("127.0.0.1", "localhost");
        runner(localhostOnly)
                .withPropertyValues("idgen.etcd.endpoints=" + byName)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    idsAreServed(context.getBean(IdService.class));
                });
    }

    @Test
    void withoutTheBundleTheServerIsNotTrustedAndTheFirstIdFails() {
        withoutBundle(tls).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(firstIdFails(context.getBean(IdService.class))).hasMessageContaining(tls.endpoint());
        });
    }
}
