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
import dev.idgen.core.spi.WorkerIdLease;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.util.ClassUtils;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the {@link IdService}. For Snowflake: the worker id, the newest timestamp in use and the layout's
 * remaining lifetime; DOWN while no ID can be issued: the clock is behind the newest timestamp by more than the
 * tolerance, the layout has run out, the lease is not valid, or the generator is closed. For segments: DOWN while any
 * name cannot serve (its callers are being refused), or while the store does not answer and a name has run out.
 * Reading it issues no ID.
 *
 * <p>The whole check runs on a thread of this indicator's own and answers within {@link #TIMEOUT} whatever the
 * stores do: past it the health is DOWN, saying so, and the check still running is joined by the next request
 * rather than repeated. {@link #close()} stops that thread.
 */
public final class IdgenHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

    /** The longest a health request waits for idgen's checks. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** How many names the health lists one by one; the rest are only counted. */
    static final int LISTED_NAMES = 20;

    /**
     * The longest the segment store's check may take, inside {@link #TIMEOUT}: past it the store counts as not
     * answering, and the rest of the health (how long each name's buffers last) is still reported in time.
     */
    static final Duration STORE_CHECK_TIMEOUT = Duration.ofSeconds(1);

    private final ExecutorService checker = daemonExecutor("idgen-health-check");

    private final ExecutorService storeChecker = daemonExecutor("idgen-health-store-check");

    /** The store check running now, if any; only the checker thread touches it. */
    private CompletableFuture<Void> storeCheck;

    private final IdService idService;

    private final ReadableIdService readableIds;

    private final Object redis;

    /** The check running now, if any; guarded by this. */
    private CompletableFuture<Health> running;

    public IdgenHealthIndicator(IdService idService) {
        this(idService, null);
    }

    /**
     * @param idService the ID service
     * @param readableIds the readable-ID service, or null
     */
    public IdgenHealthIndicator(IdService idService, ReadableIdService readableIds) {
        this(idService, readableIds, null);
    }

    /**
     * @param idService the ID service
     * @param readableIds the readable-ID service, or null
     * @param redis the {@code RedisScriptExecutor} idgen's Redis backends use, or null: typed {@code Object} so that
     *        this class loads no Redis class when Redis is not used
     */
    public IdgenHealthIndicator(IdService idService, ReadableIdService readableIds, Object redis) {
        super("idgen health check failed");
        this.idService = idService;
        this.readableIds = readableIds;
        this.redis = redis;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        CompletableFuture<Health> check;
        synchronized (this) {
            check = running;
            if (check == null || check.isDone()) {
                try {
                    check = CompletableFuture.supplyAsync(this::check, checker);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    builder.down().withDetail("strategy", idService.strategy())
                            .withDetail("error", "The idgen health indicator is closed");
                    return;
                }
                running = check;
            }
        }
        try {
            Health health = check.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            builder.status(health.getStatus()).withDetails(health.getDetails());
        } catch (TimeoutException e) {
            builder.down().withDetail("strategy", idService.strategy()).withDetail("error", "The idgen health check"
                    + " did not finish within " + TIMEOUT.toMillis() + " ms: a store it checks does not answer");
        } catch (ExecutionException e) {
            builder.down(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            builder.down().withDetail("error", "Interrupted while checking idgen's health");
        }
    }

    /** Stops the threads the checks run on. */
    @Override
    public void close() {
        checker.shutdownNow();
        storeChecker.shutdownNow();
    }

    private static ExecutorService daemonExecutor(String name) {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    private Health check() {
        Health.Builder builder = Health.up().withDetail("strategy", idService.strategy());
        if (idService instanceof SnowflakeIdService snowflake) {
            snowflakeHealth(builder, snowflake.generator());
        }
        if (idService instanceof SegmentIdService segments) {
            segmentHealth(builder, segments);
        }
        if ((redis != null || "redis".equals(idService.strategy()))
                && ClassUtils.isPresent("io.lettuce.core.RedisClient", getClass().getClassLoader())) {
            RedisHealth.contribute(builder, idService, redis);
        }
        if (readableIds != null && ClassUtils.isPresent("io.lettuce.core.RedisClient", getClass().getClassLoader())) {
            RedisHealth.buckets(builder, readableIds);
        }
        TicketHealth.contribute(builder, idService);
        return builder.build();
    }

    private static void snowflakeHealth(Health.Builder builder, SnowflakeGenerator generator) {
        Duration remaining = generator.remainingLifetime();
        // One read: a lost lease is replaced by a fresh one meanwhile.
        WorkerIdLease lease = generator.lease();
        builder.withDetail("workerId", lease.workerId())
                .withDetail("lastTimestamp", Instant.ofEpochMilli(generator.lastTimestampMillis()).toString())
                .withDetail("layoutExhaustsAt", generator.layout().exhaustedAt().toString())
                .withDetail("remainingLifetimeDays", remaining.toDays());
        long behind = generator.clockBehindMillis();
        if (lease instanceof RenewingWorkerIdLease renewing) {
            builder.withDetail("leaseOwner", renewing.owner())
                    .withDetail("leaseRemainingMillis", Math.max(0, renewing.remaining().toMillis()))
                    .withDetail("workerIdChanges", generator.workerIdChanges());
        }
        if (generator.isClosed()) {
            builder.down().withDetail("error", "The Snowflake generator is closed");
        } else if (remaining.isNegative() || remaining.isZero()) {
            builder.down().withDetail("error", "The Snowflake layout ran out at "
                    + generator.layout().exhaustedAt() + ": no more IDs");
        } else if (!lease.isValid()) {
            boolean lost = lease instanceof RenewingWorkerIdLease renewing && renewing.isLost();
            builder.down().withDetail("error", "The lease on worker id " + lease.workerId()
                    + " is not known to be valid (the lease store did not renew it in time, or another instance"
                    + " holds it): " + (lost ? "no IDs until a new worker id is leased"
                            : "no IDs until it is renewed"));
        } else if (!generator.isClockHealthy()) {
            builder.down().withDetail("clockBehindMillis", behind).withDetail("error",
                    "The clock is " + behind + " ms behind the newest timestamp in use, more than the tolerance of "
                            + generator.clockBackwardsTolerance().toMillis() + " ms: no IDs until it catches up");
        }
    }

    /**
     * Checks the store on a thread of its own and waits at most {@link #STORE_CHECK_TIMEOUT}. A check still running
     * from an earlier request is joined, not repeated, so a hanging store holds one thread, not one per request.
     *
     * @return the store's failure, or {@code null} when it answered
     */
    private String checkStore(SegmentIdService segments) {
        CompletableFuture<Void> check = storeCheck;
        if (check == null || check.isDone()) {
            try {
                check = CompletableFuture.runAsync(() -> segments.store().checkAvailable(), storeChecker);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                return "The idgen health indicator is closed";
            }
            storeCheck = check;
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
     * DOWN while any name is refusing its callers. Otherwise UP while the store answers; while it does not, each name
     * reports how long its buffers should last at the observed rate, and the health is DOWN once a name has run out
     * or when no name has any buffer at all (the store was down from the start). Names are listed by urgency (refusing
     * first, then fewest IDs left), at most {@link #LISTED_NAMES} of them; the rest are counted.
     */
    private void segmentHealth(Health.Builder builder, SegmentIdService segments) {
        String storeError = checkStore(segments);
        builder.withDetail("storeAvailable", storeError == null);
        List<SegmentBufferStats> all = new ArrayList<>(segments.stats());
        all.sort(Comparator.comparing((SegmentBufferStats stats) -> !stats.refusing())
                .thenComparingLong(SegmentBufferStats::remaining).thenComparing(SegmentBufferStats::name));
        Map<String, Object> names = new LinkedHashMap<>();
        List<String> refusing = new ArrayList<>();
        boolean runOut = false;
        for (SegmentBufferStats stats : all) {
            if (stats.refusing()) {
                refusing.add(stats.name());
            }
            if (storeError != null) {
                runOut |= stats.remaining() == 0;
            }
            if (names.size() == LISTED_NAMES) {
                continue;
            }
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("remaining", stats.remaining());
            detail.put("step", stats.step());
            if (stats.refusing()) {
                detail.put("refusing", true);
            }
            if (storeError != null) {
                stats.estimatedTimeLeft().ifPresent(left -> detail.put("estimatedTimeLeft", left.toString()));
            }
            if (stats.lastFailure() != null) {
                detail.put("lastFailure", stats.lastFailure());
            }
            names.put(stats.name(), detail);
        }
        builder.withDetail("nameCount", all.size()).withDetail("maxNames", segments.maxNames())
                .withDetail("names", names);
        if (!refusing.isEmpty()) {
            builder.down().withDetail("namesRefusing", refusing.size()).withDetail("error", refusing.size()
                    + " name(s) cannot serve, callers are refused: " + String.join(", ",
                            refusing.subList(0, Math.min(LISTED_NAMES, refusing.size())))
                    + (storeError != null ? " (" + storeError + ")" : ""));
        } else if (storeError != null) {
            builder.withDetail("error", storeError);
            if (runOut || all.isEmpty()) {
                builder.down();
            }
        }
    }
}
