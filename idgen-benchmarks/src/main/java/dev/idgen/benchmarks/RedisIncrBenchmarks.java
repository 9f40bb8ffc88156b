package dev.idgen.benchmarks;

import dev.idgen.redis.RedisIdService;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The redis strategy on a real Redis beside the raw Lettuce it wraps. idgen: {@code RedisIdService.nextId}, one
 * script per round trip that checks the window and the master's replication id and takes {@code INCRBY n} for the
 * concurrent callers of the name, over Spring Data Redis's shared native Lettuce connection,
 * windows of 100,000 reserved from MariaDB. Raw: {@code INCR} on one key through Lettuce's sync API on one shared
 * Lettuce connection. Both sides multiplex every calling thread over a single connection, no pool.
 * Redis as in {@link Redis} (a single Redis, a Sentinel master or a Cluster), MariaDB as in {@link MariaDb}.
 * Subclasses fix the thread count. On a machine whose speed drifts between runs, {@link RedisIncrAlternating} compares
 * the same two calls in alternating blocks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class RedisIncrBenchmarks {

    private static final long WINDOW_SIZE = 100_000;

    private Redis redis;
    private RedisIdService idgen;
    private Redis.Raw raw;
    private String rawKey;

    @Setup
    public void setUp() {
        redis = Redis.counter("incr", WINDOW_SIZE);
        idgen = new RedisIdService(redis.counter());
        // Connects and reserves the first window before the clock starts.
        idgen.nextId("bench");
        raw = Redis.raw();
        // The same slot as idgen's counter, so that on a cluster both go to the same master.
        rawKey = redis.prefix() + "{bench}:raw";
        raw.strings().incr(rawKey);
    }

    @TearDown
    public void tearDown() {
        String[] keys = redis.keysOf("bench");
        raw.keys().del(keys[0]);
        raw.keys().del(keys[1]);
        raw.keys().del(rawKey);
        raw.close();
        redis.close();
    }

    /** idgen's redis strategy: name check, one script (window and replication id checked, INCRBY), timed. */
    @Benchmark
    public long idgen() {
        return idgen.nextId("bench");
    }

    /** Lettuce's own {@code INCR}, sync API, one shared connection. */
    @Benchmark
    public long rawLettuce() {
        return raw.strings().incr(rawKey);
    }
}
