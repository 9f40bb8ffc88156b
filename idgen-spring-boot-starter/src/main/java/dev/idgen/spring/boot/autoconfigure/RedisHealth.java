package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisScriptExecutor;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;

/**
 * The Redis parts of the {@code idgen} health: the topology and what each master answered; for the redis strategy
 * DOWN while no master answers {@code INFO replication} within idgen.redis.timeout; with readable IDs DOWN while every bucket's circuit is open. Kept apart so the health indicator loads no Redis class when Redis is not used.
 */
final class RedisHealth {

    private RedisHealth() {
    }

    static void buckets(Health.Builder builder, dev.idgen.core.ReadableIdService readableIds) {
        if (!(readableIds instanceof dev.idgen.redis.BucketedRedisSequence buckets)) {
            return;
        }
        builder.withDetail("readableIdBuckets", buckets.bucketCount())
                .withDetail("readableIdBucketsOpen", buckets.openBuckets());
        if (buckets.allOpen()) {
            builder.down().withDetail("error", "Every readable-ID bucket's circuit is open ("
                    + buckets.redis().describe() + " failed): no readable IDs until a probe succeeds");
        }
    }

    /**
     * @return the Redis executor idgen uses, or {@code null}
     */
    static Object executor(org.springframework.beans.factory.BeanFactory beanFactory) {
        return beanFactory.getBeanProvider(RedisScriptExecutor.class).getIfUnique();
    }

    /**
     * Names the topology and what each master answered; for the redis strategy DOWN while no master answers.
     */
    static void contribute(Health.Builder builder, IdService idService, Object executor) {
        RedisScriptExecutor redis = executor instanceof RedisScriptExecutor given ? given
                : idService instanceof RedisIdService service ? service.counter().redis() : null;
        if (redis == null) {
            return;
        }
        Map<String, String> masters = redis.probeMasters();
        builder.withDetail("redis", redis.describe())
                .withDetail("redisTopology", redis.topology().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("redisMasters", masters)
                .withDetail("redisReconnects", redis.reconnects());
        if (idService instanceof RedisIdService service) {
            builder.withDetail("windowsReserved", service.counter().windowsReserved())
                    .withDetail("countersLost", service.counter().lostCounters())
                    .withDetail("failoversSeen", service.counter().failovers());
            if (masters.values().stream().allMatch(answer -> answer.startsWith("DOWN"))) {
                builder.down().withDetail("error", "No Redis master answers (" + redis.describe() + "): "
                        + String.join("; ", masters.values()));
            }
        }
    }
}
