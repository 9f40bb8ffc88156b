package dev.idgen.benchmarks;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.redis.RedisSegmentStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Segments from a real Redis in steady state, one thread: {@link SegmentIdService} over {@link RedisSegmentStore}
 * (one {@code INCRBY step} script per segment, windows reserved from MariaDB, see {@link Redis}), segments from
 * 100,000 up to {@code maxStep}, beside the same service and settings over the in-memory store (no IO) and a bare
 * {@code AtomicLong}. The tear-down prints each store's fetches, their mean time and how often a caller waited for
 * one (a preload that fell behind).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class RedisSegmentBenchmark {

    /**
     * How many values one database reservation covers. The default covers 100 segments of the largest size, so the
     * database is written once per 100 fetches; {@code -p windowSize=100000} (the starter's default) writes it on
     * every fetch of 100,000 and up.
     */
    @Param("100000000")
    public long windowSize;

    /** The largest segment; the first is 100,000. */
    @Param("1000000")
    public long maxStep;

    private Redis redis;
    private SegmentIdService fromRedis;
    private SegmentIdService fromMemory;
    private AtomicLong atomicLong;

    @Setup
    public void setUp() {
        SegmentSettings settings = SegmentSettings.builder()
                .step(100_000)
                .maxStep(maxStep)
                .bufferDuration(Duration.ofSeconds(5))
                .build();
        redis = Redis.counter("segment", windowSize);
        // Connects, loads the script and creates the window table before the clock starts.
        redis.counter().increment("warmup", 1);
        fromRedis = SegmentIdService.builder(new RedisSegmentStore(redis.counter()))
                .settings(settings)
                .build();
        fromMemory = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(settings)
                .build();
        atomicLong = new AtomicLong();
    }

    @TearDown
    public void tearDown() {
        report("redis", fromRedis);
        report("memory", fromMemory);
        fromRedis.close();
        fromMemory.close();
        RedisClient client = Redis.client();
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            String[] bench = redis.keysOf("bench");
            String[] warmup = redis.keysOf("warmup");
            Redis.deleteKeys(connection, bench[0], bench[1], warmup[0], warmup[1]);
        } finally {
            client.shutdown();
            redis.close();
        }
    }

    /** Prints what the store did: fetches, their mean time, the step reached, and how often a caller waited. */
    private static void report(String store, SegmentIdService ids) {
        ids.stats("bench")
                .ifPresent(stats -> System.out.printf(
                        Locale.ROOT,
                        "%n[%s] served %,d IDs in %,d fetches (mean %.3f ms), step %,d, callers waited %d times%n",
                        store,
                        stats.served(),
                        stats.fetches(),
                        stats.fetches() == 0 ? 0.0 : stats.fetchNanos() / 1e6 / stats.fetches(),
                        stats.step(),
                        stats.waits()));
    }

    /** {@code SegmentIdService.nextId("bench")} over the Redis segment store. */
    @Benchmark
    public long segmentFromRedis() {
        return fromRedis.nextId("bench");
    }

    /** The same service and settings over the in-memory store: the segment cursor without any IO. */
    @Benchmark
    public long segmentFromMemory() {
        return fromMemory.nextId("bench");
    }

    /** The ceiling: one shared {@code AtomicLong}. */
    @Benchmark
    public long atomicLongBaseline() {
        return atomicLong.incrementAndGet();
    }
}
