package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.redis.RedisIdService;
import org.springframework.boot.health.contributor.Health;

/**
 * The Redis parts of the {@code idgen} health: for the redis strategy DOWN while Redis does not answer a
 * {@code PING} within idgen.redis.timeout; with readable IDs DOWN while every bucket's circuit is open. Kept apart so the health indicator loads no Redis class when Redis is not used.
 */
final class RedisHealth {

    private RedisHealth() {
    }

    static void buckets(Health.Builder builder, dev.idgen.core.ReadableIdService readableIds) {
        if (!(readableIds instanceof dev.idgen.spring.boot.redis.BucketedRedisSequence buckets)) {
            return;
        }
        builder.withDetail("readableIdBuckets", buckets.bucketCount())
                .withDetail("readableIdBucketsOpen", buckets.openBuckets());
        if (buckets.allOpen()) {
            builder.down().withDetail("error", "Every readable-ID bucket's circuit is open ("
                    + buckets.redis().describe() + " failed): no readable IDs until a probe succeeds");
        }
    }

    static void contribute(Health.Builder builder, IdService idService) {
        if (!(idService instanceof RedisIdService redis)) {
            return;
        }
        builder.withDetail("redis", redis.counter().redis().describe())
                .withDetail("windowsReserved", redis.counter().windowsReserved())
                .withDetail("countersLost", redis.counter().lostCounters());
        try {
            redis.counter().redis().ping();
        } catch (RuntimeException e) {
            builder.down().withDetail("error", e.getMessage());
        }
    }
}
