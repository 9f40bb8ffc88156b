package dev.idgen.benchmarks;

import dev.idgen.redis.RedisIdService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The redis strategy and raw Lettuce {@code INCR} measured at the same time: each JMH group runs idgen's threads and
 * raw Lettuce's threads together (1 + 1, 8 + 8, 32 + 32), each side on its own shared connection, so both see the same
 * machine at every moment. On two shared cores whose speed drifts, this compares the two more fairly than
 * {@link RedisIncrBenchmarks}, which runs one side after the other; each side's score is its share of the same
 * Redis.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RedisIncrSideBySideBenchmark {

    private Redis redis;
    private RedisIdService idgen;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> raw;
    private String rawKey;

    @Setup
    public void setUp() {
        redis = Redis.counter("side", 100_000);
        idgen = new RedisIdService(redis.counter());
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

    @Benchmark
    @Group("t1")
    @GroupThreads(1)
    public long idgen1() {
        return idgen.nextId("bench");
    }

    @Benchmark
    @Group("t1")
    @GroupThreads(1)
    public long raw1() {
        return raw.incr(rawKey);
    }

    @Benchmark
    @Group("t16")
    @GroupThreads(8)
    public long idgen8() {
        return idgen.nextId("bench");
    }

    @Benchmark
    @Group("t16")
    @GroupThreads(8)
    public long raw8() {
        return raw.incr(rawKey);
    }

    @Benchmark
    @Group("t64")
    @GroupThreads(32)
    public long idgen32() {
        return idgen.nextId("bench");
    }

    @Benchmark
    @Group("t64")
    @GroupThreads(32)
    public long raw32() {
        return raw.incr(rawKey);
    }
}
