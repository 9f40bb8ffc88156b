package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the {@link IdService}. For Snowflake: the worker id, the newest timestamp in use and the layout's
 * remaining lifetime; DOWN while no ID can be issued: the clock is behind the newest timestamp by more than the
 * tolerance, the layout has run out, or the generator is closed. Reading it issues no ID.
 */
public final class IdgenHealthIndicator extends AbstractHealthIndicator {

    private final IdService idService;

    public IdgenHealthIndicator(IdService idService) {
        super("idgen health check failed");
        this.idService = idService;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetail("strategy", idService.strategy());
        if (idService instanceof SnowflakeIdService snowflake) {
            SnowflakeGenerator generator = snowflake.generator();
            Duration remaining = generator.remainingLifetime();
            builder.withDetail("workerId", generator.workerId())
                    .withDetail("lastTimestamp", Instant.ofEpochMilli(generator.lastTimestampMillis()).toString())
                    .withDetail("layoutExhaustsAt", generator.layout().exhaustedAt().toString())
                    .withDetail("remainingLifetimeDays", remaining.toDays());
            long behind = generator.clockBehindMillis();
            if (generator.isClosed()) {
                builder.down().withDetail("error", "The Snowflake generator is closed");
            } else if (remaining.isNegative() || remaining.isZero()) {
                builder.down().withDetail("error", "The Snowflake layout ran out at "
                        + generator.layout().exhaustedAt() + ": no more IDs");
            } else if (!generator.isClockHealthy()) {
                builder.down().withDetail("clockBehindMillis", behind).withDetail("error",
                        "The clock is " + behind + " ms behind the newest timestamp in use, more than the tolerance of "
                                + generator.clockBackwardsTolerance().toMillis() + " ms: no IDs until it catches up");
            }
        }
    }
}
