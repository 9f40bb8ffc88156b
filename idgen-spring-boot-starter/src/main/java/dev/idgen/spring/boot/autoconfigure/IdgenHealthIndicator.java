package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.util.ClassUtils;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the {@link IdService}. For Snowflake: the worker id, the newest timestamp in use and the layout's
 * remaining lifetime; DOWN while no ID can be issued: the clock is behind the newest timestamp by more than the
 * tolerance, the layout has run out, or the generator is closed. Reading it issues no ID.
 */
public final class IdgenHealthIndicator extends AbstractHealthIndicator {

    private static final Duration STORE_CHECK_TIMEOUT = Duration.ofSeconds(2);

    private static final Executor STORE_CHECKER = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "idgen-health-store-check");
        thread.setDaemon(true);
        return thread;
    });

    private final IdService idService;

    private CompletableFuture<Void> storeCheck;

    private final ReadableIdService readableIds;

    public IdgenHealthIndicator(IdService idService) {
        this(idService, null);
    }

    /**
     * @param idService the ID service
     * @param readableIds the readable-ID service, or null
     */
    public IdgenHealthIndicator(IdService idService, ReadableIdService readableIds) {
        super("idgen health check failed");
        this.idService = idService;
        this.readableIds = readableIds;
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
            if (generator.lease() instanceof RenewingWorkerIdLease lease) {
                builder.withDetail("leaseOwner", lease.owner())
                        .withDetail("leaseRemainingMillis", Math.max(0, lease.remaining().toMillis()))
                        .withDetail("workerIdChanges", generator.workerIdChanges());
            }
            if (generator.isClosed()) {
                builder.down().withDetail("error", "The Snowflake generator is closed");
            } else if (remaining.isNegative() || remaining.isZero()) {
                builder.down().withDetail("error", "The Snowflake layout ran out at "
                        + generator.layout().exhaustedAt() + ": no more IDs");
            } else if (!generator.lease().isValid()) {
                boolean lost = generator.lease() instanceof RenewingWorkerIdLease lease && lease.isLost();
                builder.down().withDetail("error", "The lease on worker id " + generator.workerId()
                        + " is not known to be valid (the lease store did not renew it in time, or another instance"
                        + " holds it): " + (lost ? "no IDs until a new worker id is leased"
                                : "no IDs until it is renewed"));
            } else if (!generator.isClockHealthy()) {
                builder.down().withDetail("clockBehindMillis", behind).withDetail("error",
                        "The clock is " + behind + " ms behind the newest timestamp in use, more than the tolerance of "
                                + generator.clockBackwardsTolerance().toMillis() + " ms: no IDs until it catches up");
            }
        }
        if (idService instanceof SegmentIdService segments) {
            segmentHealth(builder, segments);
        }
        if ("redis".equals(idService.strategy())
                && ClassUtils.isPresent("io.lettuce.core.RedisClient", getClass().getClassLoader())) {
            RedisHealth.contribute(builder, idService);
        }
        if (readableIds != null && ClassUtils.isPresent("io.lettuce.core.RedisClient", getClass().getClassLoader())) {
            RedisHealth.buckets(builder, readableIds);
        }
        if (ClassUtils.isPresent("org.apache.ibatis.session.SqlSessionFactory", getClass().getClassLoader())) {
            TicketHealth.contribute(builder, idService);
        }
    }

    /**
     * Checks the store on a thread of its own and waits at most {@link #STORE_CHECK_TIMEOUT}: a database that hangs
     * must not hang the health endpoint. A check still running from an earlier request is joined, not repeated.
     *
     * @return the failure, or {@code null} when the store answered
     */
    private String checkStore(SegmentIdService segments) {
        CompletableFuture<Void> check;
        synchronized (this) {
            check = storeCheck;
            if (check == null || check.isDone()) {
                check = CompletableFuture.runAsync(() -> segments.store().checkAvailable(), STORE_CHECKER);
                storeCheck = check;
            }
        }
        try {
            check.get(STORE_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (TimeoutException e) {
            return "The segment store did not answer within " + STORE_CHECK_TIMEOUT.toMillis() + " ms";
        } catch (ExecutionException e) {
            return String.valueOf(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Interrupted while checking the segment store";
        }
    }

    /**
     * UP while the store answers. While it does not, each name reports how long its buffers should last at the
     * observed rate; DOWN once a name has run out, or when no name has any buffer at all (the store was down from
     * the start).
     */
    private void segmentHealth(Health.Builder builder, SegmentIdService segments) {
        String storeError = checkStore(segments);
        builder.withDetail("storeAvailable", storeError == null);
        Map<String, Object> names = new TreeMap<>();
        boolean runOut = false;
        List<SegmentBufferStats> all = segments.stats();
        for (SegmentBufferStats stats : all) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("remaining", stats.remaining());
            detail.put("step", stats.step());
            if (storeError != null) {
                stats.estimatedTimeLeft().ifPresent(left -> detail.put("estimatedTimeLeft", left.toString()));
                runOut |= stats.remaining() == 0;
            }
            if (stats.lastFailure() != null) {
                detail.put("lastFailure", stats.lastFailure());
            }
            names.put(stats.name(), detail);
        }
        builder.withDetail("names", names);
        if (storeError != null) {
            builder.withDetail("error", storeError);
            if (runOut || all.isEmpty()) {
                builder.down();
            }
        }
    }
}
