package dev.idgen.spring.boot.autoconfigure.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.redis.RedisIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.test.services.TestServices;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What the starter does with a consensus store, for etcd and ZooKeeper alike, on a real three-member cluster the
 * subclass starts: segments, Redis windows and worker id leases from it with no database, health that shows the
 * cluster and goes DOWN without quorum, and start-up failures that name the property or the missing module.
 */
abstract class ConsensusAutoConfigurationContract {

    /** The engine's value in idgen.segment.store and the other settings: {@code etcd} or {@code zookeeper}. */
    protected abstract String engine();

    /** The properties that reach the test's cluster, the namespace one of the test's own. */
    protected abstract List<String> connection(String namespace);

    /** The property without which the engine cannot be reached. */
    protected abstract String connectionProperty();

    /** A class of the client library, which the missing-module test hides. */
    protected abstract Class<?> clientClass();

    /** Takes two of the three members down. */
    protected abstract void loseQuorum() throws Exception;

    /** Brings them back and waits for a leader. */
    protected abstract void restoreQuorum() throws Exception;

    private final String namespace = "t" + UUID.randomUUID().toString().substring(0, 8);

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenHealthContributorAutoConfiguration.class))
                .withPropertyValues(connection(namespace).toArray(String[]::new));
    }

    @Test
    void segmentsComeFromTheEngineAndTwoInstancesNeverShareAnId() {
        ApplicationContextRunner segments = runner().withPropertyValues(
                        "idgen.strategy=segment",
                        "idgen.segment.store=" + engine(),
                        "idgen." + engine() + ".initial-value=1000");
        segments.run(first -> segments.run(second -> {
            assertThat(first).hasNotFailed().doesNotHaveBean(DataSource.class);
            IdService a = first.getBean(IdService.class);
            IdService b = second.getBean(IdService.class);
            assertThat(((SegmentIdService) a).store().toString()).containsIgnoringCase(engine());
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 3000; i++) {
                assertThat(seen.add(a.nextId("orders"))).isTrue();
                assertThat(seen.add(b.nextId("orders"))).isTrue();
            }
            assertThat(Collections.min(seen))
                    .as("a new name starts after idgen.%s.initial-value", engine())
                    .isEqualTo(1001);
        }));
    }

    @Test
    void workerIdsAreLeasedFromTheEngineOnePerInstance() {
        ApplicationContextRunner snowflake = runner().withPropertyValues(
                        "idgen.snowflake.worker-id-assigner=" + engine(), "idgen.snowflake.lease.ttl=5s");
        snowflake.run(first -> snowflake.run(second -> {
            assertThat(first).hasNotFailed();
            long one = first.getBean(SnowflakeGenerator.class).workerId();
            long two = second.getBean(SnowflakeGenerator.class).workerId();
            assertThat(one).isNotEqualTo(two);
            Health health = first.getBean(IdgenHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKey(engine());
            assertThat(first.getBean(IdService.class).nextId("orders"))
                    .isNotEqualTo(second.getBean(IdService.class).nextId("orders"));
        }));
    }

    @Test
    void redisWindowsFromTheEngineNeedNoDatabase() {
        runner().withPropertyValues(
                        "spring.data.redis.host=" + TestServices.redis().host(),
                        "spring.data.redis.port=" + TestServices.redis().port(),
                        "idgen.redis.prefix=" + namespace + ":",
                        "idgen.redis.window-size=1000",
                        "idgen.redis.window-store=" + engine(),
                        "idgen.strategy=redis",
                        "idgen.generators.dual.strategy=segment",
                        "idgen.generators.dual.segment.store=dual")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(DataSource.class);
                    RedisIdService redis =
                            (RedisIdService) RoutingIdService.generatorsOf(context.getBean(IdService.class))
                                    .get(RoutingIdService.DEFAULT_GENERATOR);
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < 2500; i++) {
                        ids.add(context.getBean(IdService.class).nextId("orders"));
                    }
                    assertThat(ids).doesNotHaveDuplicates();
                    assertThat(redis.counter().windowsReserved()).isGreaterThanOrEqualTo(3);
                    assertThat(context.getBean(IdService.class).nextId("dual")).isPositive();
                });
    }

    @Test
    void healthShowsTheClusterAndIsDownWithoutQuorum() throws Exception {
        runner().withPropertyValues("idgen.strategy=segment", "idgen.segment.store=" + engine())
                .run(context -> {
                    IdgenHealthIndicator indicator = context.getBean(IdgenHealthIndicator.class);
                    Health up = indicator.health(true);
                    assertThat(up.getStatus()).isEqualTo(Status.UP);
                    assertThat(up.getDetails().get(engine())).isInstanceOf(Map.class);
                    loseQuorum();
                    try {
                        eventually(
                                "health DOWN without quorum",
                                () -> indicator.health(true).getStatus().equals(Status.DOWN));
                        assertThat(indicator.health(true).getDetails()).containsKey("error");
                    } finally {
                        restoreQuorum();
                    }
                    eventually(
                            "health UP with quorum back",
                            () -> indicator.health(true).getStatus().equals(Status.UP));
                });
    }

    @Test
    void withoutTheConnectionPropertyStartUpFailsNamingIt() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withPropertyValues("idgen.strategy=segment", "idgen.segment.store=" + engine())
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining(connectionProperty()));
    }

    @Test
    void badSettingsFailAtStartUpNamingTheProperty() {
        String prefix = "idgen." + engine();
        runner().withPropertyValues("idgen.strategy=segment", "idgen.segment.store=" + engine(), prefix + ".timeout=0s")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining(prefix + ".timeout"));
        runner().withPropertyValues(
                        "idgen.strategy=segment", "idgen.segment.store=" + engine(), prefix + ".namespace=a b")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining(prefix + ".namespace"));
        runner().withPropertyValues(
                        "idgen.strategy=segment", "idgen.segment.store=" + engine(), prefix + ".initial-value=-1")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining(prefix + ".initial-value"));
    }

    @Test
    void withoutTheModuleStartUpFailsNamingTheDependency() {
        runner().withClassLoader(new FilteredClassLoader(clientClass()))
                .withPropertyValues("idgen.snowflake.worker-id-assigner=" + engine())
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .isInstanceOf(IdgenStartupException.class)
                        .hasMessageContaining("dev.idgen:idgen-" + engine())
                        .hasMessageContaining("idgen.snowflake.worker-id-assigner=" + engine()));
    }

    private static void eventually(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline)
                    .as(what + " within a minute")
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // a poll interval
        }
    }
}
