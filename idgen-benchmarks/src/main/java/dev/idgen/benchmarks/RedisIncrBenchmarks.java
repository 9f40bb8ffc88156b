package dev.idgen.benchmarks;

import dev.idgen.spring.boot.redis.RedisIdService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
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
 * {@code INCRBY} per ID checked against its window, over Spring Data Redis's shared native Lettuce connection,
 * windows of 100,000 reserved from MariaDB. Raw: {@code INCR} on one key through Lettuce's sync API on one shared
 * {@link StatefulRedisConnection}. Both sides multiplex every calling thread over a single connection, no pool.
 * Redis is {@code IDGEN_BENCH_REDIS_HOST}:{@code IDGEN_BENCH_REDIS_PORT}, MariaDB as in {@link MariaDb}.
 * Subclasses fix the thread count. On a machine whose speed drifts between runs, {@link RedisIncrAlternating} compares
 * the same two calls in alternating blocks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class RedisIncrBenchmarks {

    private static final long WINDOW_SIZE = 100_000;

    private Redis redis;
    private RedisIdService idgen;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> raw;
    private String rawKey;

    @Setup
    public void setUp() {
        redis = Redis.counter("incr", WINDOW_SIZE);
        idgen = new RedisIdService(redis.counter());
        // Connects and reserves the first window before the clock starts.
        idgen.nextId("bench");
        client = Redis.client();
        connection = client.connect();
        raw = connection.sync();
        rawKey = redis.prefix() + "raw";
        raw.incr(rawKey);
    }

    @TearDown
    public void tearDown() {
        String[] keys = redis.keysOf("bench");
        Redis.deleteKeys(connection, keys[0], keys[1], rawKey);
        connection.close();
        client.shutdown();
        redis.close();
    }

    /** idgen's redis strategy: name check, INCRBY, window check, round trip timed and counted. */
    @Benchmark
    public long idgen() {
        return idgen.nextId("bench");
    }

    /** Lettuce's own {@code INCR}, sync API, one shared connection. */
    @Benchmark
    public long rawLettuce() {
        return raw.incr(rawKey);
    }
}
