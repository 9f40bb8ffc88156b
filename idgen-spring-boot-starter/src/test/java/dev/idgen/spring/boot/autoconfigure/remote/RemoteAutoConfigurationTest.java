package dev.idgen.spring.boot.autoconfigure.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.ScriptedIdgenServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code idgen.segment.store=remote} against scripted idgen servers: blocks, health and meters on the happy path, and
 * every start-up failure naming the property or the missing module.
 */
class RemoteAutoConfigurationTest {

    private final AtomicLong counter = new AtomicLong(1000);

    private final ScriptedIdgenServer a = new ScriptedIdgenServer(counter).token("t0ken");

    private final ScriptedIdgenServer b = new ScriptedIdgenServer(counter).token("t0ken");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class,
                    MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class,
                    SslAutoConfiguration.class));

    @AfterEach
    void stopPeers() {
        a.close();
        b.close();
    }

    private ApplicationContextRunner remote(String... more) {
        return runner.withPropertyValues(
                        "idgen.strategy=segment",
                        "idgen.segment.store=remote",
                        "idgen.remote.servers=" + a.uri() + "," + b.uri(),
                        "idgen.remote.token=t0ken")
                .withPropertyValues(more);
    }

    @Test
    void theDefaultGeneratorTakesItsBlocksFromTheServersWithHealthAndMeters() {
        AtomicReference<RemoteSegmentStore> closedAfter = new AtomicReference<>();
        remote().run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(DataSource.class).hasSingleBean(SharedRemoteStore.class);
            RemoteSegmentStore store = context.getBean(SharedRemoteStore.class).store();
            closedAfter.set(store);
            assertThat(context.getBean(SegmentStore.class)).isSameAs(store);
            IdService ids = context.getBean(IdService.class);
            assertThat(((SegmentIdService) ids).store()).isSameAs(store);
            long first = ids.nextId("orders");
            long second = ids.nextId("orders");
            assertThat(first).isGreaterThan(1000);
            assertThat(second).isGreaterThan(first);
            assertThat(a.lastAuthorization()).isEqualTo("Bearer t0ken");

            Health health = context.getBean(IdgenHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKey("remote");
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> servers = (List<Map<String, Object>>)
                    ((Map<String, Object>) health.getDetails().get("remote")).get("servers");
            assertThat(servers)
                    .extracting(server -> server.get("url"))
                    .containsExactly(a.uri().toString(), b.uri().toString());
            assertThat(servers).extracting(server -> server.get("breaker")).containsOnly("CLOSED");

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            long taken = a.blockRequests() + b.blockRequests();
            double ok = registry.get("idgen.remote.requests").tag("outcome", "ok").functionCounters().stream()
                    .mapToDouble(meter -> meter.count())
                    .sum();
            assertThat(ok).isEqualTo(taken);
            assertThat(registry.get("idgen.remote.breaker.state")
                            .tag("server", a.uri().toString())
                            .gauge()
                            .value())
                    .isZero();
            assertThat(registry.get("idgen.remote.requests")
                            .tag("server", b.uri().toString())
                            .tag("outcome", "failed")
                            .functionCounter()
                            .count())
                    .isZero();
        });
        assertThatThrownBy(() -> closedAfter.get().allocate("orders", 1))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void healthIsDownAndTheGaugeShowsAnOpenBreakerWhenTheServersFail() {
        remote(
                        "idgen.remote.breaker.failure-threshold=1",
                        "idgen.remote.timeout=1s",
                        "idgen.remote.request-timeout=500ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    a.mode(ScriptedIdgenServer.Mode.FAIL);
                    b.mode(ScriptedIdgenServer.Mode.FAIL);
                    RemoteSegmentStore store =
                            context.getBean(SharedRemoteStore.class).store();
                    assertThatThrownBy(() -> store.allocate("orders", 10))
                            .isInstanceOf(StoreUnavailableException.class)
                            .hasMessageContaining(a.uri().toString())
                            .hasMessageContaining(b.uri().toString());
                    Health health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(String.valueOf(health.getDetails())).contains("OPEN");
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("idgen.remote.breaker.state")
                                    .tag("server", a.uri().toString())
                                    .gauge()
                                    .value())
                            .isEqualTo(2);
                    assertThat(registry.get("idgen.remote.requests")
                                    .tag("server", a.uri().toString())
                                    .tag("outcome", "failed")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                });
    }

    @Test
    void namedGeneratorsShareOneStore() {
        runner.withPropertyValues(
                        "idgen.generators.invoice.strategy=segment",
                        "idgen.generators.invoice.segment.store=remote",
                        "idgen.generators.coupon.strategy=segment",
                        "idgen.generators.coupon.segment.store=remote",
                        "idgen.remote.servers=" + a.uri(),
                        "idgen.remote.token=t0ken")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(SharedRemoteStore.class);
                    assertThat(context).doesNotHaveBean(SegmentStore.class);
                    SharedRemoteStore shared = context.getBean(SharedRemoteStore.class);
                    assertThat(shared.generators()).containsExactlyInAnyOrder("invoice", "coupon");
                    IdService ids = context.getBean(IdService.class);
                    long i = ids.nextId("invoice");
                    long c = ids.nextId("coupon");
                    assertThat(i).isNotEqualTo(c);
                    assertThat(shared.store().servers().get(0).successes()).isEqualTo(2);
                });
    }

    @Test
    void withoutIdgenClientStartUpFailsNamingTheDependency() {
        remote().withClassLoader(new FilteredClassLoader(RemoteSegmentStore.class))
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .isInstanceOf(IdgenStartupException.class)
                        .hasMessageContaining("dev.idgen:idgen-client")
                        .hasMessageContaining("idgen.segment.store=remote"));
    }

    @Test
    void withoutServersStartUpFailsNamingTheProperty() {
        runner.withPropertyValues("idgen.strategy=segment", "idgen.segment.store=remote")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(IdgenStartupException.class)
                        .hasMessageContaining("idgen.remote.servers"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.remote.timeout=0s | idgen.remote.timeout | more than 0",
                "idgen.remote.request-timeout=5s | idgen.remote.request-timeout | must not exceed",
                "idgen.remote.connect-timeout=-1s | idgen.remote.connect-timeout | more than 0",
                "idgen.remote.breaker.failure-threshold=0 | idgen.remote.breaker.failure-threshold | between 1 and 1000",
                "idgen.remote.breaker.open-duration=-1s | idgen.remote.breaker.open-duration | between 0s and 10m",
                "idgen.remote.servers=ftp://idgen:21 | idgen.remote.servers | http or https",
                "idgen.remote.servers=http://idgen:8080?x=1 | idgen.remote.servers | no query",
                "idgen.remote.ssl.bundle=nope | idgen.remote.ssl.bundle | names no SSL bundle",
                "idgen.remote.token=a b | idgen.remote.token | printable"
            })
    void aBadValueFailsStartUpNamingThePropertyAndTheRule(String setting, String property, String rule) {
        remote(setting)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo(property))
                        .hasMessageContaining(rule));
    }

    @Test
    void theServersAreSharedAndCannotBeSetPerGenerator() {
        remote("idgen.generators.invoice.strategy=segment", "idgen.generators.invoice.remote.servers=" + a.uri())
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("idgen.generators.invoice.remote"));
    }
}
