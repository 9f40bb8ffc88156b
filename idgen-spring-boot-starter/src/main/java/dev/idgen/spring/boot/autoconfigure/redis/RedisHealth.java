package dev.idgen.spring.boot.autoconfigure.redis;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;

/**
 * The Redis parts of the {@code idgen} health: the topology and what each master answered; for the redis strategy
 * DOWN while no master answers {@code INFO replication} within idgen.redis.timeout; with readable IDs DOWN while every bucket's circuit is open. Kept apart so the health indicator loads no Redis class when Redis is not used.
 */
public final class RedisHealth implements IdgenGeneratorHealth {

    private final RedisScriptExecutor executor;

    private final ReadableIdService readableIds;

    /**
     * @param executor the Redis executor idgen's Redis backends use, or null
     * @param readableIds the readable-ID service, or null: reported with the default generator
     */
    public RedisHealth(RedisScriptExecutor executor, ReadableIdService readableIds) {
        this.executor = executor;
        this.readableIds = readableIds;
    }

    /** Every generator: any of them may use Redis (a lease store, a segment store) whatever its strategy. */
    @Override
    public String strategy() {
        return null;
    }

    @Override
    public void contribute(String generator, IdService service, Health.Builder builder) {
        contribute(builder, service, executor);
        if (readableIds != null && RoutingIdService.DEFAULT_GENERATOR.equals(generator)) {
            buckets(builder, readableIds);
        }
    }

    private static void buckets(Health.Builder builder, ReadableIdService readableIds) {
        if (!(readableIds instanceof BucketedRedisSequence buckets)) {
            return;
        }
        builder.withDetail("readableIdBuckets", buckets.bucketCount())
                .withDetail("readableIdBucketsOpen", buckets.openBuckets());
        if (buckets.allOpen()) {
            builder.down()
                    .withDetail(
                            "error",
                            "Every readable-ID bucket's circuit is open ("
                                    + buckets.redis().describe() + " failed): no readable IDs until a probe succeeds");
        }
    }

    /**
     * Names the topology and what each master answered; for the redis strategy DOWN while no master answers.
     */
    private static void contribute(Health.Builder builder, IdService idService, RedisScriptExecutor executor) {
        RedisScriptExecutor redis = executor != null
                ? executor
                : idService instanceof RedisIdService service
                        ? service.counter().redis()
                        : null;
        if (redis == null) {
            return;
        }
        Map<String, String> masters = redis.probeMasters();
        builder.withDetail("redis", redis.describe())
                .withDetail("redisTopology", redis.topology().name().toLowerCase(Locale.ROOT))
                .withDetail("redisMasters", masters)
                .withDetail("redisReconnects", redis.reconnects());
        if (idService instanceof RedisIdService service) {
            builder.withDetail("windowsReserved", service.counter().windowsReserved())
                    .withDetail("countersLost", service.counter().lostCounters())
                    .withDetail("failoversSeen", service.counter().failovers());
            if (masters.values().stream().allMatch(answer -> answer.startsWith("DOWN"))) {
                builder.down()
                        .withDetail(
                                "error",
                                "No Redis master answers (" + redis.describe() + "): "
                                        + String.join("; ", masters.values()));
            }
        }
    }
}
