package dev.idgen.spring.boot.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.redis.DualSegmentStore;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.OwnRedisCluster;
import dev.idgen.test.services.OwnRedisNode;
import dev.idgen.test.services.OwnRedisSentinelGroup;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Every Redis feature through Spring Boot's own {@code spring.data.redis.sentinel.*} and
 * {@code spring.data.redis.cluster.*}, on a real Sentinel group and a real Redis Cluster of the test's own: the redis
 * strategy (persistence checked on every master), the dual segment store, readable IDs and leased worker ids, and a
 * health that names the topology and what each master answered.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class IdgenReplicatedRedisAutoConfigurationTest {

    private static OwnRedisSentinelGroup sentinel;
    private static OwnRedisCluster cluster;

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";

    @BeforeAll
    static void start() throws Exception {
        sentinel = OwnRedisSentinelGroup.start();
        cluster = OwnRedisCluster.start();
    }

    @AfterAll
    static void stop() {
        if (sentinel != null) {
            sentinel.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private ApplicationContextRunner runner(String... redis) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        MybatisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenHealthContributorAutoConfiguration.class,
                        IdgenMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withPropertyValues(
                        "idgen.redis.prefix=" + prefix,
                        "spring.datasource.url=jdbc:h2:mem:idgen-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        // A fresh Redis makes newcomers wait ttl + reuse delay after its start: keep both short.
                        "idgen.snowflake.lease.ttl=2s",
                        "idgen.snowflake.lease.reuse-delay=1s")
                .withPropertyValues(redis);
    }

    private static String[] sentinelProperties() {
        return new String[] {
            "spring.data.redis.sentinel.master=" + sentinel.masterName(),
            "spring.data.redis.sentinel.nodes="
                    + sentinel.sentinelPorts().stream()
                            .map(port -> "127.0.0.1:" + port)
                            .collect(Collectors.joining(","))
        };
    }

    private static String[] clusterProperties() {
        return new String[] {
            "spring.data.redis.cluster.nodes="
                    + cluster.nodes().stream()
                            .map(node -> "127.0.0.1:" + node.port())
                            .collect(Collectors.joining(",")),
            "spring.data.redis.lettuce.cluster.refresh.adaptive=true",
            "spring.data.redis.lettuce.cluster.refresh.period=1s"
        };
    }

    @Test
    void theRedisStrategyAndReadableIdsThroughSentinel() {
        runner(sentinelProperties())
                .withPropertyValues("idgen.strategy=redis", "idgen.redis.buckets.enabled=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids).isInstanceOf(RedisIdService.class);
                    assertThat(ids.nextIds("orders", 3)).containsExactly(1, 2, 3);
                    assertThat(context.getBean(ReadableIdService.class).nextReadableId("ORD"))
                            .contains("ORD");
                    var health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails())
                            .containsEntry("redisTopology", "sentinel")
                            .containsEntry(
                                    "redisMasters",
                                    Map.of("127.0.0.1:" + sentinel.master().port(), "master, 2 replicas"));
                    assertThat(health.getDetails().get("redis").toString())
                            .contains("Redis Sentinel master '" + sentinel.masterName() + "'")
                            .contains("127.0.0.1:" + sentinel.sentinelPorts().get(0));
                });
    }

    @Test
    void theRedisStrategyAndReadableIdsOnACluster() {
        runner(clusterProperties())
                .withPropertyValues("idgen.strategy=redis", "idgen.redis.buckets.enabled=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    // Names land in different slots, on different masters: each counts on its own.
                    for (String name : new String[] {"orders", "payments", "messages", "users", "carts"}) {
                        assertThat(ids.nextIds(name, 2)).as(name).containsExactly(1, 2);
                    }
                    ReadableIdService readable = context.getBean(ReadableIdService.class);
                    java.util.Set<String> seen = new java.util.HashSet<>();
                    for (int i = 0; i < 600; i++) {
                        // 256 buckets, one per slot, spread over all three masters
                        assertThat(seen.add(readable.nextReadableId("ORD"))).isTrue();
                    }
                    var health = context.getBean(IdgenHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("redisTopology", "cluster");
                    @SuppressWarnings("unchecked")
                    Map<String, String> masters =
                            (Map<String, String>) health.getDetails().get("redisMasters");
                    assertThat(masters)
                            .hasSize(3)
                            .allSatisfy((node, answer) -> assertThat(answer).isEqualTo("master, 1 replicas"));
                    assertThat(context.getBean(RedisScriptExecutor.class).topology())
                            .isEqualTo(RedisScriptExecutor.Topology.CLUSTER);
                });
    }

    @Test
    void anUnsafeMasterOfTheClusterIsNamedAtStartUp() throws Exception {
        OwnRedisNode master = cluster.masterForKey(prefix + "{orders}");
        master.call("CONFIG", "SET", "save", "60 1");
        try {
            runner(clusterProperties())
                    .withPropertyValues("idgen.strategy=redis")
                    .run(context -> assertThat(context)
                            .hasFailed()
                            .getFailure()
                            .rootCause()
                            .hasMessageContaining("master 127.0.0.1:" + master.port())
                            .hasMessageContaining("save='60 1'"));
        } finally {
            master.call("CONFIG", "SET", "save", "");
        }
    }

    @Test
    void dualSegmentsAndLeasesThroughSentinelAndOnACluster() {
        for (String[] redis : new String[][] {sentinelProperties(), clusterProperties()}) {
            runner(redis)
                    .withPropertyValues("idgen.strategy=segment", "idgen.segment.store=dual")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        SegmentIdService ids = (SegmentIdService) context.getBean(IdService.class);
                        assertThat(ids.store()).isInstanceOf(DualSegmentStore.class);
                        assertThat(ids.nextIds("orders", 3)).containsExactly(1, 2, 3);
                        assertThat(((DualSegmentStore) ids.store()).fallbacks()).isZero();
                    });
            runner(redis)
                    .withPropertyValues("idgen.snowflake.worker-id-assigner=redis")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        SnowflakeGenerator generator = context.getBean(SnowflakeGenerator.class);
                        assertThat(generator.workerId()).isBetween(0L, 1023L);
                        IdService ids = context.getBean(IdService.class);
                        assertThat(ids.decode(ids.nextId("orders")).toMap())
                                .containsEntry("workerId", generator.workerId());
                        var health = context.getBean(IdgenHealthIndicator.class).health(true);
                        assertThat(health.getStatus()).isEqualTo(Status.UP);
                        assertThat(health.getDetails()).containsKeys("leaseOwner", "redisTopology", "redisMasters");
                    });
        }
    }
}
