package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.redis.RedisIdService;
import org.springframework.boot.health.contributor.Health;

/**
 * The redis strategy's part of the {@code idgen} health: DOWN while Redis does not answer a {@code PING} within
 * idgen.redis.timeout. Kept apart so the health indicator loads no Redis class when Redis is not used.
 */
final class RedisHealth {

    private RedisHealth() {
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
