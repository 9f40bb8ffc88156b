package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.IdService;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.health.contributor.Health;

/**
 * Snowflake health: the worker id, the newest timestamp in use and the layout's remaining lifetime; DOWN while no ID
 * can be issued: the clock is behind the newest timestamp by more than the tolerance, the layout has run out, the
 * lease is not valid, or the generator is closed.
 */
public final class SnowflakeHealth implements IdgenGeneratorHealth {

    @Override
    public String strategy() {
        return SnowflakeDecodedId.STRATEGY;
    }

    @Override
    public void contribute(String generator, IdService service, Health.Builder builder) {
        if (service instanceof SnowflakeIdService snowflake) {
            snowflakeHealth(builder, snowflake.generator());
        }
    }

    private static void snowflakeHealth(Health.Builder builder, SnowflakeGenerator generator) {
        Duration remaining = generator.remainingLifetime();
        // One read: a lost lease is replaced by a fresh one meanwhile.
        WorkerIdLease lease = generator.lease();
        builder.withDetail("workerId", lease.workerId())
                .withDetail(
                        "lastTimestamp",
                        Instant.ofEpochMilli(generator.lastTimestampMillis()).toString())
                .withDetail("layoutExhaustsAt", generator.layout().exhaustedAt().toString())
                .withDetail("remainingLifetimeDays", remaining.toDays());
        long behind = generator.clockBehindMillis();
        if (lease instanceof RenewingWorkerIdLease renewing) {
            builder.withDetail("leaseOwner", renewing.owner())
                    .withDetail(
                            "leaseRemainingMillis",
                            Math.max(0, renewing.remaining().toMillis()))
                    .withDetail("workerIdChanges", generator.workerIdChanges());
        }
        if (generator.isClosed()) {
            builder.down().withDetail("error", "The Snowflake generator is closed");
        } else if (remaining.isNegative() || remaining.isZero()) {
            builder.down()
                    .withDetail(
                            "error",
                            "The Snowflake layout ran out at "
                                    + generator.layout().exhaustedAt() + ": no more IDs");
        } else if (!lease.isValid()) {
            boolean lost = lease instanceof RenewingWorkerIdLease renewing && renewing.isLost();
            builder.down()
                    .withDetail(
                            "error",
                            "The lease on worker id " + lease.workerId()
                                    + " is not known to be valid (the lease store did not renew it in time, or another instance"
                                    + " holds it): "
                                    + (lost ? "no IDs until a new worker id is leased" : "no IDs until it is renewed"));
        } else if (!generator.isClockHealthy()) {
            builder.down()
                    .withDetail("clockBehindMillis", behind)
                    .withDetail(
                            "error",
                            "The clock is " + behind
                                    + " ms behind the newest timestamp in use, more than the tolerance of "
                                    + generator.clockBackwardsTolerance().toMillis()
                                    + " ms: no IDs until it catches up");
        }
    }
}
