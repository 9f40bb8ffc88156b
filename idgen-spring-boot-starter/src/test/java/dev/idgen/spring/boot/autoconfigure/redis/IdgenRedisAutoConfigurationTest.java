package dev.idgen.spring.boot.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.redis.DualSegmentStore;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMeterBinder;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.TestServices;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

class IdgenRedisAutoConfigurationTest {

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues(
                    "spring.data.redis.host=" + TestServices.redis().host(),
                    "spring.data.redis.port=" + TestServices.redis().port(),
                    "idgen.redis.prefix=" + prefix);

    private static String h2() {
        return "spring.datasource.url=jdbc:h2:mem:idgen-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    @Test
    void theRedisStrategyCountsInRedisWithItsFloorInTheDatabase() {
        runner.withPropertyValues("idgen.strategy=redis", h2(), "idgen.redis.window-size=1000")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids).isInstanceOf(RedisIdService.class);
                    assertThat(ids.strategy()).isEqualTo("redis");
                    assertThat(ids.nextId("orders")).isEqualTo(1);
                    assertThat(ids.nextIds("orders", 3)).containsExactly(2, 3, 4);
                    var health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails())
                            .containsEntry("redisTopology", "standalone")
                            .containsEntry(
                                    "redis",
                                    "Redis at " + TestServices.redis().host() + ":"
                                            + TestServices.redis().port())
                            .containsEntry(
                                    "redisMasters",
                                    java.util.Map.of(
                                            TestServices.redis().host() + ":"
                                                    + TestServices.redis().port(),
                                            "master, 0 replicas"));
                    SimpleMeterRegistry registry = context.getBean(SimpleMeterRegistry.class);
                    context.getBean(RedisMeters.class).bindTo(registry);
                    assertThat(registry.get("idgen.redis.round.trips")
                                    .tag("outcome", "success")
                                    .functionTimer()
                                    .count())
                            .isGreaterThanOrEqualTo(2);
                    assertThat(registry.get("idgen.redis.windows")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                    assertThat(registry.get("idgen.redis.failovers")
                                    .functionCounter()
                                    .count())
                            .isZero();
                    assertThat(registry.get("idgen.redis.coalesced.calls")
                                    .tag("source", "redis-strategy")
                                    .functionCounter()
                                    .count())
                            .as("nextId calls; nextIds takes its own round trip")
                            .isEqualTo(1);
                    assertThat(registry.get("idgen.redis.coalesced.round.trips")
                                    .tag("source", "redis-strategy")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                });
    }

    @Test
    void theRedisStrategyWithoutADatabaseFailsSayingWhy() {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataRedisAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("idgen.strategy=redis")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.strategy=redis keeps its durable floor in a" + " database"));
    }

    @Test
    void anUnreachableRedisMakesHealthDown() {
        runner.withPropertyValues("idgen.strategy=redis", h2(), "spring.data.redis.port=1", "idgen.redis.timeout=200ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    var health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails().get("error").toString()).contains("127.0.0.1:1");
                });
    }

    @Test
    void badRedisSettingsNameTheProperty() {
        runner.withPropertyValues("idgen.strategy=redis", h2(), "idgen.redis.prefix=a{b}")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining("idgen.redis.prefix"));
        runner.withPropertyValues("idgen.strategy=redis", h2(), "idgen.redis.timeout=2m")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.redis.timeout"));
        runner.withPropertyValues("idgen.strategy=redis", h2(), "idgen.redis.window-size=0")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.redis.window-size"));
    }

    @Test
    void segmentsFromRedisOrFromRedisAndTheDatabase() {
        runner.withPropertyValues("idgen.strategy=segment", "idgen.segment.store=redis", h2())
                .run(context -> {
                    SegmentIdService ids = (SegmentIdService) context.getBean(IdService.class);
                    assertThat(ids.store()).isInstanceOf(RedisSegmentStore.class);
                    assertThat(ids.nextIds("orders", 5)).containsExactly(1, 2, 3, 4, 5);
                });
        runner.withPropertyValues("idgen.strategy=segment", "idgen.segment.store=dual", h2())
                .run(context -> {
                    SegmentIdService ids = (SegmentIdService) context.getBean(IdService.class);
                    DualSegmentStore dual = (DualSegmentStore) ids.store();
                    assertThat(ids.nextIds("invoices", 5)).containsExactly(1, 2, 3, 4, 5);
                    assertThat(dual.fallbacks())
                            .as("blocks the dual store took from the database")
                            .isZero();
                    assertThat(context.getBean(StringRedisTemplate.class).keys(prefix + "*"))
                            .as("Redis keys under %s", prefix)
                            .anySatisfy(key -> assertThat(key).contains("invoices"));
                });
    }

    @Test
    void leasedWorkerIdsFromRedisAreDistinctAndReleasedOnClose() {
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=redis").run(first -> {
            SnowflakeGenerator a = first.getBean(SnowflakeGenerator.class);
            assertThat(first.getBean(dev.idgen.core.spi.WorkerIdAssigner.class))
                    .isInstanceOf(LeasingWorkerIdAssigner.class);
            assertThat(a.lease()).isInstanceOf(RenewingWorkerIdLease.class);
            var health = first.getBean(IdgenHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKeys("leaseOwner", "leaseRemainingMillis");
            first.getBean(IdgenMeterBinder.class).bindTo(first.getBean(SimpleMeterRegistry.class));
            assertThat(first.getBean(SimpleMeterRegistry.class)
                            .get("idgen.lease.remaining")
                            .timeGauge()
                            .value(java.util.concurrent.TimeUnit.SECONDS))
                    .isGreaterThan(20);
            StringRedisTemplate redis = first.getBean(StringRedisTemplate.class);
            long[] secondWorkerId = new long[1];
            runner.withPropertyValues("idgen.snowflake.worker-id-assigner=redis")
                    .run(second -> {
                        SnowflakeGenerator b = second.getBean(SnowflakeGenerator.class);
                        assertThat(b.workerId()).isNotEqualTo(a.workerId());
                        assertThat(first.getBean(IdService.class)
                                        .decode(first.getBean(IdService.class).nextId())
                                        .toMap())
                                .containsEntry("workerId", a.workerId());
                        secondWorkerId[0] = b.workerId();
                        assertThat(leaseExpiry(redis, b.workerId()))
                                .as("the second instance's lease while it runs")
                                .isGreaterThan(redisMillis(redis));
                    });
            assertThat(leaseExpiry(redis, secondWorkerId[0]))
                    .as("the second instance's lease after it closed")
                    .isLessThanOrEqualTo(redisMillis(redis));
            assertThat(leaseExpiry(redis, a.workerId()))
                    .as("the first instance's lease, still held")
                    .isGreaterThan(redisMillis(redis));
        });
    }

    /** When the lease on a worker id expires, in Redis server time (see RedisWorkerIdLeaseStore's hash). */
    private long leaseExpiry(StringRedisTemplate redis, long workerId) {
        Object expiry = redis.opsForHash().get(prefix + "{workers}", "e:" + workerId);
        assertThat(expiry)
                .as("the lease hash's expiry of worker id %d", workerId)
                .isNotNull();
        return Long.parseLong(expiry.toString());
    }

    private static long redisMillis(StringRedisTemplate redis) {
        return redis.execute((RedisCallback<Long>)
                connection -> connection.serverCommands().time(java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    @Test
    void leasedWorkerIdsFromADatabaseTableAreDistinct() {
        String url = h2();
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=jdbc", url)
                .run(first -> {
                    SnowflakeGenerator a = first.getBean(SnowflakeGenerator.class);
                    assertThat(a.lease()).isInstanceOf(RenewingWorkerIdLease.class);
                    runner.withPropertyValues("idgen.snowflake.worker-id-assigner=jdbc", url)
                            .run(second -> {
                                assertThat(second.getBean(SnowflakeGenerator.class)
                                                .workerId())
                                        .isNotEqualTo(a.workerId());
                            });
                });
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=jdbc", url, "idgen.jdbc.worker-table=bad table")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.jdbc.worker-table"));
    }

    @Test
    void readableIdsFromBucketedRedisSequences() {
        runner.withPropertyValues(
                        "idgen.redis.buckets.enabled=true",
                        "idgen.redis.buckets.count=16",
                        "idgen.redis.buckets.zone=Asia/Shanghai")
                .run(context -> {
                    ReadableIdService readable = context.getBean(ReadableIdService.class);
                    String id = readable.nextReadableId("ORD");
                    assertThat(id).hasSize(15 + 3 + 2 + 5).contains("ORD");
                    assertThat(readable.decodeReadable(id).toMap()).containsEntry("bizCode", "ORD");
                    var health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("readableIdBucketsOpen", 0);
                    SimpleMeterRegistry registry = context.getBean(SimpleMeterRegistry.class);
                    context.getBean(RedisMeters.class).bindTo(registry);
                    assertThat(registry.get("idgen.redis.bucket.state").gauges())
                            .hasSize(16);
                    assertThat(registry.get("idgen.redis.buckets.open").gauge().value())
                            .isZero();
                    assertThat(registry.get("idgen.redis.coalesced.calls")
                                    .tag("source", "readable-ids")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                    assertThat(registry.get("idgen.redis.coalesced.round.trips")
                                    .tag("source", "readable-ids")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                });
        runner.withPropertyValues("idgen.redis.buckets.enabled=true", "idgen.redis.buckets.count=2000")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.redis.buckets.count"));
        runner.withPropertyValues("idgen.redis.buckets.enabled=true", "idgen.redis.buckets.max-sequence=3")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.redis.buckets.max-sequence"));
    }

    @Test
    void allBucketsOpenMakesHealthDown() {
        runner.withPropertyValues(
                        "idgen.redis.buckets.enabled=true",
                        "idgen.redis.buckets.count=4",
                        "spring.data.redis.port=1",
                        "idgen.redis.timeout=100ms",
                        "idgen.redis.buckets.open-duration=1m")
                .run(context -> {
                    ReadableIdService readable = context.getBean(ReadableIdService.class);
                    var buckets = (dev.idgen.redis.BucketedRedisSequence) readable;
                    // Each failing call opens at least the buckets it tried within the 100 ms budget.
                    for (int i = 0; i < 8 && !buckets.allOpen(); i++) {
                        org.assertj.core.api.Assertions.assertThatThrownBy(() -> readable.nextReadableId("X"))
                                .isInstanceOf(dev.idgen.core.StoreUnavailableException.class);
                    }
                    assertThat(buckets.allOpen()).isTrue();
                    var health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails().get("error").toString()).contains("readable-ID bucket");
                    SimpleMeterRegistry registry = context.getBean(SimpleMeterRegistry.class);
                    context.getBean(RedisMeters.class).bindTo(registry);
                    assertThat(registry.get("idgen.redis.bucket.state").gauges())
                            .as("2 is open, as documented")
                            .hasSize(4)
                            .allSatisfy(gauge -> assertThat(gauge.value()).isEqualTo(2.0));
                    assertThat(registry.get("idgen.redis.buckets.open").gauge().value())
                            .isEqualTo(4.0);
                });
    }

    @Test
    void startupFailsClearlyWhenEveryWorkerIdIsTaken() {
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=redis", "idgen.snowflake.worker-bits=0")
                .run(first -> {
                    assertThat(first).hasNotFailed();
                    runner.withPropertyValues(
                                    "idgen.snowflake.worker-id-assigner=redis", "idgen.snowflake.worker-bits=0")
                            .run(second -> assertThat(second)
                                    .hasFailed()
                                    .getFailure()
                                    .rootCause()
                                    .isInstanceOf(dev.idgen.core.WorkerIdsExhaustedException.class)
                                    .hasMessageContaining("No worker id from 0 to 0 is free"));
                });
    }

    @Test
    void badLeaseSettingsNameTheProperty() {
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=redis", "idgen.snowflake.lease.ttl=100ms")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.snowflake.lease.ttl"));
    }

    @Test
    void aRedisBackendWithoutSpringDataRedisFailsSayingWhatToAdd() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .withPropertyValues("idgen.snowflake.worker-id-assigner=redis")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .isInstanceOf(IdgenStartupException.class)
                        .hasMessageContaining("idgen.snowflake.worker-id-assigner=redis needs Spring Data Redis"));
    }

    @Test
    void nothingRedisIsConfiguredWhenNoRedisBackendIsAskedFor() {
        runner.run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(dev.idgen.redis.RedisScriptExecutor.class));
    }
}
