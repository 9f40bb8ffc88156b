package dev.idgen.spring.boot.autoconfigure.redis;

import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.DualSegmentStore;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.redis.RedisWindowedCounter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Meters of idgen's Redis backends, all read from counters when scraped: Redis round trips by outcome
 * ({@code idgen.redis.round.trips}, a timer), database windows reserved and counters Redis lost, segments the dual
 * store took from the database, the circuit state of each readable-ID bucket, and how concurrent calls of the
 * {@code redis} strategy and of readable IDs share round trips ({@code idgen.redis.coalesced.calls} and
 * {@code idgen.redis.coalesced.round.trips}, tagged {@code source}: their ratio is how many callers one round trip
 * served).
 */
public final class RedisMeters implements MeterBinder {

    private final RedisRoundTrips roundTrips;
    private final SegmentStore segmentStore;
    private final ReadableIdService readableIds;
    private final RedisWindowedCounter counter;

    public RedisMeters(
            RedisRoundTrips roundTrips,
            SegmentStore segmentStore,
            RedisWindowedCounter counter,
            ReadableIdService readableIds) {
        this.roundTrips = roundTrips;
        this.segmentStore = segmentStore;
        this.counter = counter;
        this.readableIds = readableIds;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (roundTrips != null) {
            for (RedisRoundTrips.Outcome outcome : RedisRoundTrips.Outcome.values()) {
                FunctionTimer.builder(
                                "idgen.redis.round.trips",
                                roundTrips,
                                trips -> trips.count(outcome),
                                trips -> trips.totalTime(outcome, TimeUnit.NANOSECONDS),
                                TimeUnit.NANOSECONDS)
                        .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                        .description("Round trips to Redis, by how they ended")
                        .register(registry);
            }
        }
        RedisWindowedCounter windowed = counter;
        if (segmentStore instanceof DualSegmentStore dual) {
            FunctionCounter.builder("idgen.segment.fallbacks", dual, DualSegmentStore::fallbacks)
                    .description("Segments taken straight from the database because Redis failed")
                    .register(registry);
            windowed = dual.redis().counter();
        } else if (segmentStore instanceof RedisSegmentStore redis) {
            windowed = redis.counter();
        }
        if (windowed != null) {
            FunctionCounter.builder("idgen.redis.windows", windowed, RedisWindowedCounter::windowsReserved)
                    .description("Windows of values reserved from the database for Redis counters")
                    .register(registry);
            FunctionCounter.builder("idgen.redis.counters.lost", windowed, RedisWindowedCounter::lostCounters)
                    .description("Redis counters found missing (Redis lost its data) and continued from the database")
                    .register(registry);
            FunctionCounter.builder("idgen.redis.failovers", windowed, RedisWindowedCounter::failovers)
                    .description("Redis windows found installed under another replication id (a failover, or a"
                            + " restart with an older dataset) and continued from a fresh window")
                    .register(registry);
        }
        if (counter != null) {
            // The redis strategy's counter: its nextId callers share round trips.
            bindCoalesced(
                    registry,
                    "redis-strategy",
                    counter,
                    RedisWindowedCounter::coalescedCalls,
                    RedisWindowedCounter::coalescedRoundTrips);
        }
        if (readableIds != null) {
            BucketMeters.bind(registry, readableIds);
        }
    }

    /** Tag {@code source} of the coalescing meters: the {@code redis} strategy, or readable IDs. */
    static final String SOURCE = "source";

    static <T> void bindCoalesced(
            MeterRegistry registry, String source, T owner, ToDoubleFunction<T> calls, ToDoubleFunction<T> roundTrips) {
        FunctionCounter.builder("idgen.redis.coalesced.calls", owner, calls)
                .tag(SOURCE, source)
                .description("Calls served through shared Redis round trips (one ID each): concurrent callers of one"
                        + " name (redis strategy) or business code (readable IDs) share one INCRBY n")
                .register(registry);
        FunctionCounter.builder("idgen.redis.coalesced.round.trips", owner, roundTrips)
                .tag(SOURCE, source)
                .description("Shared Redis round trips that served those calls; calls over round trips is how many"
                        + " callers one round trip served")
                .register(registry);
    }

    static final class BucketMeters {

        private BucketMeters() {}

        static void bind(MeterRegistry registry, ReadableIdService readableIds) {
            if (!(readableIds instanceof BucketedRedisSequence buckets)) {
                return;
            }
            for (int i = 0; i < buckets.bucketCount(); i++) {
                int bucket = i;
                Gauge.builder("idgen.redis.bucket.state", buckets, b -> gaugeValue(b.circuitState(bucket)))
                        .tag("bucket", Integer.toString(bucket))
                        .description("A readable-ID bucket's circuit: 0 closed, 1 half-open, 2 open")
                        .register(registry);
            }
            Gauge.builder("idgen.redis.buckets.open", buckets, BucketedRedisSequence::openBuckets)
                    .description("Readable-ID buckets whose circuit is not closed")
                    .register(registry);
            FunctionCounter.builder("idgen.redis.buckets.busy", buckets, BucketedRedisSequence::busySkips)
                    .description("Times a call skipped a bucket that had used up its sequences in this millisecond")
                    .register(registry);
            FunctionCounter.builder("idgen.redis.buckets.wraps", buckets, BucketedRedisSequence::wraps)
                    .description("Times a bucket's sequence wrapped")
                    .register(registry);
            FunctionCounter.builder("idgen.redis.buckets.failovers", buckets, BucketedRedisSequence::failovers)
                    .description("Times a bucket was found written under another master (a failover) and fenced")
                    .register(registry);
            bindCoalesced(
                    registry,
                    "readable-ids",
                    buckets,
                    BucketedRedisSequence::coalescedCalls,
                    BucketedRedisSequence::coalescedRoundTrips);
        }

        /** Spelled out, not the enum's ordinal: dashboards and alerts read these published numbers. */
        static int gaugeValue(CircuitBreaker.State state) {
            return switch (state) {
                case CLOSED -> 0;
                case HALF_OPEN -> 1;
                case OPEN -> 2;
            };
        }
    }
}
